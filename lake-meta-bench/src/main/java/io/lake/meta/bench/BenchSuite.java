package io.lake.meta.bench;

import io.lake.meta.bench.BenchPlan.Group;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs a {@link BenchPlan}: each group of JMH benchmarks with its raw baselines in the same run,
 * lake-meta and raw RocksDB (for PostgreSQL: plain JDBC) alternating trial by trial, the DynamoDB
 * cost model, and PostgreSQL's round trips per call after its timed cases; and turns
 * the results into a {@link BenchReport} (each figure the median of its rounds). The machine's
 * load average is recorded before and after each group, since a shared machine moves the
 * absolute figures (the ratios, measured side by side, move much less).
 */
public final class BenchSuite {

    private final BenchPlan plan;
    private final Path jmhLog;
    private final PrintWriter progress;
    private final Optional<String> postgresUrl;
    private @Nullable PgServer postgres; // started with the postgres group, unless a server was named

    /**
     * @param jmhLog where JMH's own output goes (every iteration of every benchmark)
     * @param progress one line per group as it starts
     */
    public BenchSuite(BenchPlan plan, Path jmhLog, PrintWriter progress) {
        this(plan, jmhLog, progress, Optional.empty());
    }

    /**
     * @param postgresUrl the PostgreSQL server of the {@code postgres} group (credentials from
     *     {@code PGUSER} and {@code PGPASSWORD}); empty: the group starts one from the binaries Maven
     *     downloaded, for this run only
     */
    public BenchSuite(BenchPlan plan, Path jmhLog, PrintWriter progress, Optional<String> postgresUrl) {
        this.plan = plan;
        this.jmhLog = jmhLog;
        this.progress = progress;
        this.postgresUrl = postgresUrl.map(url -> PgServer.at(url).jdbcUrl());
    }

    public BenchReport run() throws RunnerException {
        Map<Group, Measurements> measurements = new EnumMap<>(Group.class);
        List<MachineLoad> loads = new ArrayList<>();
        List<BenchRow> dynamoRows = List.of();
        List<BenchRow> postgresRoundTrips = List.of();
        for (Group group : Group.values()) {
            if (!plan.groups().contains(group)) {
                continue;
            }
            progress.println("lake-meta bench: running " + group.name().toLowerCase(Locale.ROOT) + " ...");
            progress.flush();
            String before = MachineLoad.now();
            if (group == Group.DYNAMO) {
                dynamoRows = DynamoCostModel.rows(plan.dynamoKeys());
            } else {
                if (group == Group.POSTGRES) {
                    postgres = postgresUrl.map(PgServer::at).orElseGet(PgServer::embedded);
                }
                for (int round = 0;
                        round < plan.rounds();
                        round++) { // rounds outermost: every case sees each phase of the load
                    for (Case c : cases(group)) {
                        for (String backend : inTurn(c.backends(), round)) {
                            measurements
                                    .computeIfAbsent(group, g -> new Measurements())
                                    .addAll(runLogged(options(group, c, backend)));
                        }
                    }
                }
                if (group == Group.POSTGRES) {
                    postgresRoundTrips = PgCostModel.rows(postgres());
                }
            }
            loads.add(new MachineLoad(group.name().toLowerCase(Locale.ROOT), before, MachineLoad.now()));
        }
        List<BenchRow> rows = new ArrayList<>(RocksRows.of(measurements, plan));
        rows.addAll(dynamoRows);
        if (measurements.containsKey(Group.POSTGRES)) {
            rows.addAll(PostgresRows.of(measurements.get(Group.POSTGRES), plan, postgresRoundTrips));
        }
        return new BenchReport(plan.name(), rows, loads, jmhLog);
    }

    /**
     * One benchmark method at one durability, run for each backend in turn, round after round:
     * alternating keeps lake-meta and its raw baseline under the same share of a busy machine.
     */
    private record Case(String benchmark, Optional<String> durability, List<String> backends) {}

    /** Odd rounds run the backends in reverse order, so neither always goes first. */
    private static List<String> inTurn(List<String> backends, int round) {
        List<String> order = new ArrayList<>(backends);
        if (round % 2 == 1) {
            java.util.Collections.reverse(order);
        }
        return order;
    }

    private List<Case> cases(Group group) {
        List<String> both = List.of(Backend.LAKE_META.name(), Backend.RAW_ROCKSDB.name());
        List<Optional<String>> durabilities = List.of(Optional.of("SYNCED_WAL"), Optional.of("UNSYNCED_WAL"));
        List<Case> cases = new ArrayList<>();
        switch (group) {
            case WRITES -> {
                for (String method : List.of("cas1", "cas16", "create16")) {
                    durabilities.forEach(d -> cases.add(new Case("WriteBenchmark." + method, d, both)));
                }
            }
            case HOTKEY -> {
                // lake-meta only; its baseline, raw 1-thread synced puts, alternates with it so the group stands alone
                cases.add(new Case("HotKeyBenchmark.readThenCas", Optional.of("SYNCED_WAL"), List.of("")));
                cases.add(new Case(
                        "WriteBenchmark.cas1", Optional.of("SYNCED_WAL"), List.of(Backend.RAW_ROCKSDB.name())));
            }
            case READS -> {
                cases.add(new Case("ReadBenchmark.get1", Optional.empty(), both));
                if (plan.forks() > 0) {
                    cases.add(new Case("ReadBenchmark.get4", Optional.empty(), both));
                }
            }
            case LISTING -> cases.add(new Case("ListingBenchmark.listFamily", Optional.empty(), both));
            case BULK -> durabilities.forEach(d -> cases.add(new Case("BulkLoadBenchmark.load", d, both)));
            case POSTGRES -> {
                List<String> sides = List.of(PgBackend.LAKE_META.name(), PgBackend.RAW_JDBC.name());
                for (String method : List.of("cas1", "cas16", "page1", "getAll1")) {
                    cases.add(new Case("PostgresBenchmark." + method, Optional.empty(), sides));
                }
            }
            default -> throw new IllegalArgumentException("not a JMH group: " + group);
        }
        return cases;
    }

    /** Runs one trial; JMH rewrites its output file per run, so each run's is appended to the log. */
    private Collection<RunResult> runLogged(ChainedOptionsBuilder options) throws RunnerException {
        try {
            Path runLog = Files.createTempFile("lake-meta-bench-run-", ".log");
            try {
                Collection<RunResult> results =
                        new Runner(options.output(runLog.toString()).build()).run();
                Files.write(jmhLog, Files.readAllBytes(runLog), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                return results;
            } finally {
                Files.deleteIfExists(runLog);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write JMH's log to " + jmhLog, e);
        }
    }

    /** The server of the postgres group, which starts it before its first benchmark. */
    private PgServer postgres() {
        return Objects.requireNonNull(postgres, "the postgres group has not started its server");
    }

    private ChainedOptionsBuilder options(Group group, Case c, String backend) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(benchmark(c.benchmark()))
                .forks(plan.forks())
                .shouldFailOnError(true)
                .param("readKeys", Integer.toString(plan.readKeys()))
                .param("listedKeys", Integer.toString(plan.listedKeys()))
                .param("loadedKeys", Integer.toString(plan.loadedKeys()));
        c.durability().ifPresent(d -> options.param("durability", d));
        if (group == Group.POSTGRES) {
            options.param("jdbcUrl", postgres().jdbcUrl())
                    .param("jdbcUser", postgres().user())
                    .param("familyKeys", Integer.toString(plan.postgresKeys()));
        }
        if (!backend.isEmpty()) {
            options.param("backend", backend);
        }
        if (group == Group.BULK) {
            options.warmupIterations(plan.bulkShots() > 1 ? 1 : 0).measurementIterations(plan.bulkShots());
        } else {
            TimeValue iteration = TimeValue.milliseconds(plan.iterationMillis());
            options.warmupIterations(plan.warmups())
                    .warmupTime(iteration)
                    .measurementIterations(plan.measurements())
                    .measurementTime(iteration);
        }
        return options;
    }

    private static String benchmark(String method) {
        return "^" + (BenchSuite.class.getPackageName() + "." + method).replace(".", "\\.") + "$";
    }
}
