package io.lake.meta.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The PostgreSQL lines of the report: each lake-meta figure against plain JDBC statements doing
 * the same work in the same run (the rounds alternating), then what each call costs in round
 * trips ({@link PgCostModel}).
 */
final class PostgresRows {

    private static final String LAKE = PgBackend.LAKE_META.name();
    private static final String RAW = PgBackend.RAW_JDBC.name();

    private final Measurements m;
    private final List<BenchRow> rows = new ArrayList<>();

    private PostgresRows(Measurements m) {
        this.m = m;
    }

    /**
     * The targets, set from the round trips before anything was measured: lake-meta's CAS takes
     * three (lock and read, write returning the transaction id, COMMIT: the id is what resolves a
     * lost COMMIT answer) where a bare {@code UPDATE … WHERE v = ?} in autocommit takes one, so on
     * loopback it may cost up to three times as much; a page and {@code getAll} are one statement
     * on both sides.
     */
    static List<BenchRow> of(Measurements m, BenchPlan plan, List<BenchRow> roundTrips) {
        PostgresRows r = new PostgresRows(m);
        r.timed("PostgreSQL CAS, 1 thread", "cas1", "raw UPDATE ... WHERE k AND v, 1 thread", Target.atLeast(0.33));
        r.timed(
                "PostgreSQL CAS, 16 threads",
                "cas16",
                "raw UPDATE ... WHERE k AND v, 16 threads",
                Target.atLeast(0.33));
        r.timed(
                String.format("PostgreSQL first page of 100 of a %,d-key family", plan.postgresKeys()),
                "page1",
                "raw SELECT ... ORDER BY k LIMIT 101",
                Target.atLeast(0.8));
        r.timed("PostgreSQL getAll of 16 keys", "getAll1", "raw SELECT ... WHERE k = ANY(?)", Target.atLeast(0.8));
        r.rows.addAll(roundTrips);
        return r.rows;
    }

    private void timed(String row, String method, String against, Target target) {
        String benchmark = "PostgresBenchmark." + method;
        Optional<Double> lake = m.score(benchmark, Map.of("backend", LAKE));
        Optional<Double> raw = m.score(benchmark, Map.of("backend", RAW));
        if (lake.isPresent() && raw.isPresent()) {
            rows.add(new BenchRow(row, "ops/s", lake.get(), against, raw.get(), target, rounds(benchmark)));
        }
    }

    /** Each round's ratio (lake-meta's trial over the raw trial of the same round), to show the spread. */
    private String rounds(String benchmark) {
        List<Double> a = m.scores(benchmark, Map.of("backend", LAKE));
        List<Double> b = m.scores(benchmark, Map.of("backend", RAW));
        if (a.size() < 2 || a.size() != b.size()) {
            return "";
        }
        StringBuilder note = new StringBuilder("rounds:");
        for (int i = 0; i < a.size(); i++) {
            note.append(i == 0 ? " " : ", ").append(BenchRow.format(a.get(i) / b.get(i)));
        }
        return note.toString();
    }
}
