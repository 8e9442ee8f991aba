package io.lake.meta.cli.copy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.PrefixOption;
import io.lake.meta.cli.Terminal;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.cli.store.StoreSpec;
import io.lake.meta.copy.CopyReport;
import io.lake.meta.copy.StoreCopy;
import io.lake.meta.copy.Verification;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code copy --from SPEC --to SPEC [--prefix P...] [--page-size N] [--verify-only] [--into-non-empty] [--json]}:
 * {@link StoreCopy} from the command line, with its progress bar on stderr.
 */
@Command(
        name = "copy",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Copy every key (or only the keys under the given prefixes) from one store to another (any backends),"
                    + " then verify both ways that the two hold the same keys and values, and print each side's"
                    + " content digest.",
            "Stop every writer of the source first: a copy is exact only of a store nobody writes; the"
                    + " verification reports a source that changed meanwhile.",
            "Without --prefix, every family the source lists is copied (a DynamoDB source lists them with"
                    + " a Scan of its whole table, read capacity in proportion to its size: on a large table name its"
                    + " families instead, --prefix tbl/ --prefix lease/ ...)."
                    + " With --prefix, keys of a family not named are neither copied nor verified.",
            "Killed, the copy resumes where it stopped when run again with the same prefixes: its resume record"
                    + " (lake-meta-copy/resume in the target) moves in the same transaction as the keys it covers,"
                    + " and is deleted at the end. Keys are created only where absent; nothing is overwritten."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta copy --from rocks:/srv/meta --to postgres:jdbc:postgresql://db/m",
            "  lake-meta copy --from rocks:/srv/meta --to postgres:jdbc:postgresql://db/m \\",
            "      --prefix tbl/ --prefix lease/",
            "  lake-meta copy --from rocks:/srv/meta --to dynamo:meta --prefix tbl/ \\",
            "      --verify-only --json"
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:copied (or, with --verify-only, compared) and the verification is equal",
            ExitCodeHelp.BAD_INPUT,
            "3:the stores differ after the copy (or a key of the target differed and was left), or the copy was refused:"
                    + " a non-empty target without --into-non-empty, another copy's resume record, no --prefix for a"
                    + " source that cannot list its families (or holds lake-meta-copy/ keys: an unfinished copy's target)",
            ExitCodeHelp.STORE_ERROR,
            ExitCodeHelp.INTERNAL_ERROR
        })
public final class CopyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--from",
            required = true,
            paramLabel = "SPEC",
            converter = StoreSpec.Converter.class,
            description =
                    "The source store: rocks:DIR, dynamo:TABLE or postgres:JDBC-URL[#TABLE], as --store elsewhere;"
                            + " opened read-only where the backend allows.")
    StoreSpec from;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "SPEC",
            converter = StoreSpec.Converter.class,
            description = "The target store, created if missing (a RocksDB directory, a DynamoDB or PostgreSQL table).")
    StoreSpec to;

    @Option(
            names = "--prefix",
            paramLabel = "P",
            description = "A prefix to copy, repeated for each: tbl/ (a whole family) or tbl/sales/. Default: every"
                    + " family the source lists.")
    List<String> prefixes = new ArrayList<>();

    @Option(
            names = "--page-size",
            paramLabel = "N",
            defaultValue = "" + StoreCopy.DEFAULT_PAGE_SIZE,
            description = "Source entries read per page, 1 to 10000 (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(names = "--verify-only", description = "Only compare the two stores; write nothing.")
    boolean verifyOnly;

    @Option(
            names = "--into-non-empty",
            description = "Copy into a target that already holds keys under the prefixes: those keys are left as they"
                    + " are; the ones with other bytes are reported.")
    boolean intoNonEmpty;

    @Option(names = "--from-endpoint", paramLabel = "URI", description = "For a dynamo: source: its endpoint.")
    @Nullable
    String fromEndpoint;

    @Option(names = "--from-region", paramLabel = "R", description = "For a dynamo: source: its region.")
    @Nullable
    String fromRegion;

    @Option(names = "--to-endpoint", paramLabel = "URI", description = "For a dynamo: target: its endpoint.")
    @Nullable
    String toEndpoint;

    @Option(names = "--to-region", paramLabel = "R", description = "For a dynamo: target: its region.")
    @Nullable
    String toRegion;

    @Option(names = "--json", description = "Print the report as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        List<KeyPrefix> keyPrefixes = prefixes.stream().map(PrefixOption::parse).toList();
        try (MetaStore source = from.withConnection(fromEndpoint, fromRegion).openReadOnly()) {
            // the prefixes and page size are checked before the target is opened, which may create it
            StoreCopy.Builder builder = StoreCopy.from(source)
                    .prefixes(keyPrefixes)
                    .pageSize(pageSize)
                    .intoNonEmpty(intoNonEmpty);
            if (keyPrefixes.isEmpty()) {
                builder.everyFamily(); // lists the families: a source refused (or of too many) creates no target
            }
            try (MetaStore target = to.withConnection(toEndpoint, toRegion).open(!verifyOnly)) {
                return copyOrVerify(builder.to(target));
            }
        }
    }

    private int copyOrVerify(StoreCopy.Builder builder) {
        if (verifyOnly) {
            StoreCopy copy = builder.build();
            Verification verification = copy.verify();
            print(copy.prefixes(), null, verification);
            return verification.equal() ? ExitCodes.OK : ExitCodes.CONFLICT;
        }
        CopyReport report;
        try (CopyProgressBar bar = new CopyProgressBar(spec.commandLine().getErr(), Terminal.interactive() && !json)) {
            report = builder.listener(bar::advance).build().run();
        }
        print(report.prefixes(), report, report.verification());
        return report.verification().equal() && report.differing() == 0 ? ExitCodes.OK : ExitCodes.CONFLICT;
    }

    private void print(List<KeyPrefix> plan, @Nullable CopyReport report, Verification verification) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> all = new LinkedHashMap<>();
            all.put("prefixes", plan.stream().map(KeyPrefix::toString).toList());
            if (report != null) {
                Map<String, Object> copy = new LinkedHashMap<>();
                copy.put("resumed", report.resumed());
                copy.put("pages", report.pages());
                copy.put("copied", report.copied());
                copy.put("alreadyEqual", report.alreadyEqual());
                copy.put("differing", report.differing());
                copy.put(
                        "differingKeys",
                        report.differingSample().stream().map(Object::toString).toList());
                all.put("copy", copy);
            }
            Map<String, Object> verify = new LinkedHashMap<>();
            verify.put("equal", verification.equal());
            verify.put("sourceKeys", verification.sourceKeys());
            verify.put("targetKeys", verification.targetKeys());
            verify.put("sourceDigest", verification.sourceDigest());
            verify.put("targetDigest", verification.targetDigest());
            verify.put("missingInTarget", verification.missingInTarget());
            verify.put("extraInTarget", verification.extraInTarget());
            verify.put("valueDiffers", verification.valueDiffers());
            verify.put("sourceStable", verification.sourceStable());
            List<Map<String, String>> sample = new ArrayList<>();
            for (Verification.Difference difference : verification.sample()) {
                sample.add(Map.of(
                        "key",
                        difference.key().toString(),
                        "kind",
                        difference.kind().name()));
            }
            verify.put("differences", sample);
            all.put("verification", verify);
            out.println(Json.write(all));
        } else {
            if (prefixes.isEmpty()) {
                out.println("every family of the source: "
                        + plan.stream().map(KeyPrefix::toString).collect(java.util.stream.Collectors.joining(" ")));
            }
            if (report != null) {
                out.println((report.resumed() ? "resumed and copied " : "copied ") + report.copied() + " keys in "
                        + report.pages() + " pages"
                        + (report.alreadyEqual() > 0 ? ", " + report.alreadyEqual() + " already equal" : "")
                        + (report.differing() > 0 ? ", " + report.differing() + " differing left as they were" : ""));
                report.differingSample().forEach(key -> out.println("differing (not overwritten): " + key));
            }
            out.println("source: " + verification.sourceKeys() + " keys, sha256 " + verification.sourceDigest());
            out.println("target: " + verification.targetKeys() + " keys, sha256 " + verification.targetDigest());
            if (verification.equal()) {
                out.println("verified: equal both ways");
            } else {
                out.println("verified: DIFFERENT (" + verification.missingInTarget() + " missing in target, "
                        + verification.extraInTarget() + " extra in target, " + verification.valueDiffers()
                        + " with other values"
                        + (verification.sourceStable()
                                ? ""
                                : "; the source changed while it" + " was read: stop its writers")
                        + ")");
                verification
                        .sample()
                        .forEach(d -> out.println(
                                "  " + d.kind().name().toLowerCase(Locale.ROOT).replace('_', '-') + ": " + d.key()));
            }
        }
        out.flush();
    }
}
