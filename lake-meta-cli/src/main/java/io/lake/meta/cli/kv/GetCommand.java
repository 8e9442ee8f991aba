package io.lake.meta.cli.kv;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code get KEY} or {@code get --keys K1,K2,...}: prints values. */
@Command(
        name = "get",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print a key's value; exits 1 when the key is absent.",
            "With --keys, read several keys in one batch and print KEY<TAB>VALUE for each present one, in "
                    + "the order given; exits 1 when any of them is absent (each absent key is named on stderr)."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the value was printed (with --keys: every key was present)",
            "1:the key is absent (with --keys: at least one is; each is named on stderr)",
            ExitCodeHelp.BAD_INPUT,
            ExitCodeHelp.STORE_ERROR,
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta get --store rocks:/tmp/meta tbl/sales/orders",
            "  lake-meta get --store rocks:/tmp/meta --keys \\",
            "      tbl/sales/orders,tbl/sales/invoices --json",
            "  lake-meta get --store dynamo:meta --endpoint http://127.0.0.1:8000 \\",
            "      tbl/sales/orders --hex"
        })
public final class GetCommand extends StoreCommand {

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "KEY",
            description = "The key, family/rest: for example tbl/sales/orders.")
    @Nullable
    String key;

    @Option(
            names = "--keys",
            split = ",",
            paramLabel = "K1,K2,...",
            description = "Read these keys in one batch (at most 10000, each once) instead of KEY.")
    @Nullable
    List<String> keys;

    @Override
    public Integer call() {
        if ((key == null) == (keys == null)) {
            throw new UsageException("give either KEY or --keys K1,K2,..., not " + (key == null ? "neither" : "both"));
        }
        return key != null ? single(key) : batch(Objects.requireNonNull(keys)); // exactly one is set
    }

    private int single(String key) {
        MetaKey metaKey = MetaKey.of(key);
        ValueEncoding encoding = format.encoding();
        Optional<MetaValue> value = withReadOnlyStore(store -> store.get(metaKey));
        if (format.json) {
            spec.commandLine().getOut().println(Json.write(entry(key, value, encoding)));
        } else if (value.isPresent()) {
            spec.commandLine().getOut().println(encoding.encode(value.get(), "value of " + key));
        } else {
            ErrorHandler.printError(spec.commandLine(), key + " is absent");
        }
        spec.commandLine().getOut().flush();
        return value.isPresent() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }

    private int batch(List<String> keys) {
        List<MetaKey> metaKeys = new ArrayList<>(keys.size());
        keys.forEach(k -> metaKeys.add(MetaKey.of(k)));
        ValueEncoding encoding = format.encoding();
        Map<MetaKey, MetaValue> found = withReadOnlyStore(store -> store.getAll(metaKeys));
        if (format.json) {
            List<Map<String, Object>> entries = new ArrayList<>();
            metaKeys.forEach(k -> entries.add(entry(k.toString(), Optional.ofNullable(found.get(k)), encoding)));
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("keys", entries);
            spec.commandLine().getOut().println(Json.write(json));
        } else {
            for (MetaKey k : metaKeys) {
                MetaValue value = found.get(k);
                if (value != null) {
                    spec.commandLine().getOut().println(k + "\t" + encoding.encode(value, "value of " + k));
                } else {
                    ErrorHandler.printError(spec.commandLine(), k + " is absent");
                }
            }
        }
        spec.commandLine().getOut().flush();
        return found.size() == metaKeys.size() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }

    private static Map<String, Object> entry(String key, Optional<MetaValue> value, ValueEncoding encoding) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("key", key);
        json.put("found", value.isPresent());
        if (value.isPresent()) {
            json.put("value", encoding.encode(value.get(), "value of " + key));
            json.put("encoding", encoding.label());
        }
        return json;
    }
}
