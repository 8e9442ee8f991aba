package io.lake.meta.cli;

import io.lake.meta.bench.BenchPlan;
import io.lake.meta.bench.BenchReport;
import io.lake.meta.bench.BenchSuite;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench [--quick] [--json] [--only GROUP,...]}: the JMH benchmarks of {@code lake-meta-bench}
 * on this machine, each lake-meta figure next to raw RocksDB's from the same run, then the
 * DynamoDB cost model on the in-process server; prints the table with ratios and targets.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {
            "Benchmark the backends on this machine, against raw RocksDB JNI.",
            "It measures RocksDB writes, a hot key, point reads, a listing and a "
                    + "bulk load, each against raw RocksDB JNI measured in the same run (same durability, same JVM "
                    + "options), then what each DynamoDB operation costs on the in-process test server.",
            "Prints every row with its ratio and target. The full run takes about half an hour; --quick a "
                    + "few minutes. Ratios matter, not absolute figures: run it on a quiet machine."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the benchmarks ran and the table was printed (a missed target is reported, not an error)",
            "2:bad input: an unknown --only group",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta bench --quick",
            "  lake-meta bench --only writes,listing --json > bench.json",
            "  lake-meta bench                                  # the full run, about 30 min"
        })
final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Short iterations and smaller data: a first look in a few minutes.")
    boolean quick;

    /** Hidden: the build's smoke test runs the whole command in seconds; no figure of it means anything. */
    @Option(names = "--smoke", hidden = true,
            description = "The smallest run (point reads in this JVM, the DynamoDB cost model on a tiny family).")
    boolean smoke;

    @Option(names = "--json", description = "Print the report as JSON instead of a table.")
    boolean json;

    @Option(names = "--only", split = ",", paramLabel = "GROUP", converter = GroupName.class,
            completionCandidates = GroupName.class,
            description = "Run only these groups: ${COMPLETION-CANDIDATES} (default: all).")
    Set<BenchPlan.Group> only = EnumSet.allOf(BenchPlan.Group.class);

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = spec.commandLine().getErr();
        BenchPlan plan = smoke ? BenchPlan.smoke() : (quick ? BenchPlan.quick() : BenchPlan.full()).only(only);
        Path log = jmhLog();
        BenchReport report = new BenchSuite(plan, log, progress).run();
        out.print(json ? report.toJson() + System.lineSeparator() : report.toText());
        out.flush();
        return 0;
    }

    /** Groups by their lower-case names, as the help lists them. */
    static final class GroupName implements ITypeConverter<BenchPlan.Group>, Iterable<String> {

        @Override
        public BenchPlan.Group convert(String name) {
            for (BenchPlan.Group group : BenchPlan.Group.values()) {
                if (group.name().equalsIgnoreCase(name)) {
                    return group;
                }
            }
            throw new TypeConversionException("'" + name + "' is not a group: choose from " + String.join(", ", this));
        }

        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(BenchPlan.Group.values()).map(g -> g.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    private static Path jmhLog() throws IOException {
        return Files.createTempFile("lake-meta-bench-", ".log");
    }
}
