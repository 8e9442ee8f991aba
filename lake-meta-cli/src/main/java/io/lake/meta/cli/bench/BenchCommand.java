package io.lake.meta.cli.bench;

import io.lake.meta.bench.BenchPlan;
import io.lake.meta.bench.BenchReport;
import io.lake.meta.bench.BenchSuite;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.cli.store.PostgresStoreSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code bench [--quick] [--json] [--only GROUP,...] [--postgres JDBC-URL]}: the JMH benchmarks of
 * {@code lake-meta-bench} on this machine, each lake-meta figure next to raw RocksDB's (or plain
 * JDBC's) from the same run, then the DynamoDB cost model on the in-process server; prints the
 * table with ratios and targets.
 *
 * <p>The everyday runnable jar ({@code lake-meta-cli-*-all.jar}) leaves the harness out (JMH, the
 * PostgreSQL binaries): it parses the options, then runs the bench jar beside it
 * ({@code lake-meta-cli-*-bench.jar}, the same command with the harness) in a JVM of its own. The
 * launcher script goes to the bench jar directly.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Benchmark the backends on this machine, against raw RocksDB JNI and plain JDBC.",
            "It measures RocksDB writes, a hot key, point reads, a listing and a "
                    + "bulk load, each against raw RocksDB JNI measured in the same run (same durability, same JVM "
                    + "options), then what each DynamoDB operation costs on the in-process test server, then "
                    + "PostgreSQL CAS (1 and 16 threads), a page and getAll, each against plain JDBC statements doing "
                    + "the same work in the same run, and their round trips per call.",
            "PostgreSQL: the server given with --postgres, else one started from the binaries Maven "
                    + "downloaded (Linux x86_64), for this run only.",
            "Prints every row with its ratio and target. The full run takes about half an hour; --quick a "
                    + "few minutes. Ratios matter, not absolute figures: run it on a quiet machine."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the benchmarks ran and the table was printed (a missed target is reported, not an error)",
            "2:bad input: an unknown --only group, a --postgres that is not a JDBC URL, or a jar without the harness",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta bench --quick",
            "  lake-meta bench --only writes,listing --json > bench.json",
            "  PGUSER=bench PGPASSWORD=... lake-meta bench --only postgres \\",
            "      --postgres jdbc:postgresql://db.internal:5432/bench",
            "  lake-meta bench                                  # the full run, about 30 min"
        })
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Short iterations and smaller data: a first look in a few minutes.")
    boolean quick;

    /** Hidden: the build's smoke test runs the whole command in seconds; no figure of it means anything. */
    @Option(
            names = "--smoke",
            hidden = true,
            description = "The smallest run (point reads in this JVM, the DynamoDB cost model on a tiny family).")
    boolean smoke;

    @Option(names = "--json", description = "Print the report as JSON instead of a table.")
    boolean json;

    @Option(
            names = "--only",
            split = ",",
            paramLabel = "GROUP",
            converter = GroupName.class,
            completionCandidates = GroupName.class,
            description = "Run only these groups: ${COMPLETION-CANDIDATES} (default: all).")
    Set<BenchPlan.Group> only = EnumSet.allOf(BenchPlan.Group.class);

    @Option(
            names = "--postgres",
            paramLabel = "JDBC-URL",
            description = "The PostgreSQL server of the postgres group (jdbc:postgresql://host:port/database; "
                    + "credentials from PGUSER and PGPASSWORD). Default: start one for this run.")
    @Nullable
    String postgres;

    /** Where JMH lives; absent from the everyday jar. */
    static final String HARNESS_CLASS = "org.openjdk.jmh.runner.Runner";

    @Override
    public Integer call() throws Exception {
        if (postgres != null) {
            try {
                PostgresStoreSpec.parse(postgres); // the postgres: stores' rules: a JDBC URL, no credentials in it
            } catch (TypeConversionException e) {
                throw new UsageException("--postgres takes a JDBC URL (jdbc:postgresql://host:port/database) with the"
                        + " credentials in PGUSER and PGPASSWORD: " + e.getMessage());
            }
        }
        if (!harnessPresent()) {
            return inBenchJar(spec.commandLine().getParseResult().originalArgs());
        }
        return InProcess.run(this);
    }

    /** The run itself, in a class of its own: only loaded where the harness is on the class path. */
    private static final class InProcess {
        static int run(BenchCommand command) throws Exception {
            PrintWriter out = command.spec.commandLine().getOut();
            PrintWriter progress = command.spec.commandLine().getErr();
            BenchPlan plan = command.smoke
                    ? BenchPlan.smoke()
                    : (command.quick ? BenchPlan.quick() : BenchPlan.full()).only(command.only);
            Path log = jmhLog();
            BenchReport report = new BenchSuite(plan, log, progress, Optional.ofNullable(command.postgres)).run();
            out.print(command.json ? report.toJson() + System.lineSeparator() : report.toText());
            out.flush();
            return 0;
        }
    }

    static boolean harnessPresent() {
        try {
            Class.forName(HARNESS_CLASS, false, BenchCommand.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * Runs {@code bench} with the same arguments from the bench jar beside this jar, in a JVM of its
     * own (JMH forks further JVMs from its class path), and answers its exit code.
     */
    private static int inBenchJar(List<String> args) throws IOException, InterruptedException {
        Optional<Path> benchJar = benchJarBesideThisJar();
        if (benchJar.isEmpty()) {
            throw new UsageException("this lake-meta jar leaves the benchmark harness out: run the repository's"
                    + " ./lake-meta bench (it builds the bench jar on first use), or java -jar"
                    + " lake-meta-cli-VERSION-bench.jar bench (mvn package -pl lake-meta-cli -am builds it)");
        }
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                benchJar.get().toString()));
        command.addAll(args);
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }

    /** {@code lake-meta-cli-V-bench.jar} next to {@code lake-meta-cli-V-all.jar}, when this class came from the latter. */
    static Optional<Path> benchJarBesideThisJar() {
        try {
            Path self = Path.of(BenchCommand.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            String name = self.getFileName().toString();
            if (!name.endsWith("-all.jar")) {
                return Optional.empty();
            }
            Path bench = self.resolveSibling(name.substring(0, name.length() - "-all.jar".length()) + "-bench.jar");
            return Files.isRegularFile(bench) ? Optional.of(bench) : Optional.empty();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
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
            return Arrays.stream(BenchPlan.Group.values())
                    .map(g -> g.name().toLowerCase(Locale.ROOT))
                    .iterator();
        }
    }

    private static Path jmhLog() throws IOException {
        return Files.createTempFile("lake-meta-bench-", ".log");
    }
}
