package io.lake.meta.cli.kv;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code put KEY (VALUE | --value-file F) [--expect OLD | --create]}: a conditional create or update. */
@Command(
        name = "put",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Create a key, or update it with --expect; exits 3 on a conflict.",
            "Without --expect the key must be absent. With --expect OLD it must hold exactly OLD.",
            "A conflict writes nothing and reports the current value.",
            "The new value is VALUE, or the bytes of --value-file F (- reads standard input)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta put --store rocks:/tmp/meta --create-store tbl/sales/orders \\",
            "      '{\"version\":1}'",
            "  lake-meta put --store rocks:/tmp/meta tbl/sales/orders --value-file \\",
            "      orders.json \\",
            "      --expect '{\"version\":1}'",
            "  cat spec.json | lake-meta put --store rocks:/tmp/meta tbl/sales/x \\",
            "      --value-file -"
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:written",
            ExitCodeHelp.BAD_INPUT,
            "3:conflict: the key is present (without --expect), absent or holds other bytes; nothing was written",
            ExitCodeHelp.STORE_ERROR,
            ExitCodeHelp.INTERNAL_ERROR
        })
public final class PutCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "KEY", description = "The key, family/rest: for example tbl/sales/orders.")
    String key;

    @Parameters(
            index = "1",
            arity = "0..1",
            paramLabel = "VALUE",
            description = "The new value (or give --value-file).")
    @Nullable
    String value;

    @Option(
            names = "--value-file",
            paramLabel = "F",
            description = {
                "Read the new value from file F, or from standard input for -: its bytes exactly (with --hex"
                        + " or --base64: its text, decoded; a final newline is ignored)."
            })
    @Nullable
    String valueFile;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    @Nullable
    Condition condition;

    @Option(
            names = "--create-store",
            description = {
                "Create the store if it does not exist yet: for rocks:DIR its directory; for dynamo:TABLE an"
                        + " on-demand table with the lake-meta key schema and 16 shards (needs dynamodb:CreateTable);"
                        + " for postgres:JDBC-URL the table (needs CREATE on its schema)."
            })
    boolean createStore;

    /** What the key must hold for the write to apply. */
    static final class Condition {
        @Option(
                names = "--expect",
                paramLabel = "OLD",
                required = true,
                description = "Update: apply only if the key holds exactly OLD.")
        String expected;

        @Option(
                names = "--create",
                required = true,
                description = "Create: apply only if the key is absent (the default).")
        boolean create;
    }

    @Override
    public Integer call() {
        ValueEncoding encoding = format.encoding();
        MetaKey metaKey = MetaKey.of(key);
        MetaValue newValue = newValue(encoding, System.in);
        Mutation mutation = condition == null || condition.expected == null
                ? Mutation.create(metaKey, newValue)
                : Mutation.update(metaKey, encoding.decode(condition.expected, "--expect"), newValue);
        return write(createStore, mutation);
    }

    /** VALUE, or the contents of --value-file; exactly one of them. */
    MetaValue newValue(ValueEncoding encoding, InputStream stdin) {
        if ((value == null) == (valueFile == null)) {
            throw new UsageException(
                    value == null
                            ? "missing VALUE: give it after KEY, or use --value-file F (- for standard input)"
                            : "VALUE and --value-file exclude each other: give one");
        }
        if (valueFile == null) {
            return encoding.decode(Objects.requireNonNull(value), "VALUE"); // exactly one of the two is given
        }
        byte[] bytes;
        try {
            bytes = valueFile.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(valueFile));
        } catch (NoSuchFileException e) {
            throw new UsageException("--value-file " + valueFile + " does not exist");
        } catch (IOException e) {
            throw new UsageException("--value-file " + valueFile + " could not be read: " + e.getMessage());
        }
        if (encoding == ValueEncoding.UTF8) {
            return MetaValue.of(bytes);
        }
        String text = new String(bytes, StandardCharsets.US_ASCII).strip();
        return encoding.decode(text, "--value-file " + valueFile);
    }
}
