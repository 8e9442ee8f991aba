package io.lake.meta.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The RocksDB lines of the report, each lake-meta figure against its raw baseline from the same
 * run and the same group (the hot-key group runs raw 1-thread synced puts of its own: they pair
 * with its trials, not with the write group's).
 */
final class RocksRows {

    private static final String LAKE = "LAKE_META";
    private static final String RAW = "RAW_ROCKSDB";
    private static final String SYNCED = "SYNCED_WAL";
    private static final String UNSYNCED = "UNSYNCED_WAL";

    private final Map<BenchPlan.Group, Measurements> groups;
    private final BenchPlan plan;
    private @Nullable Measurements m; // the group in(...) chose
    private final List<BenchRow> rows = new ArrayList<>();

    private RocksRows(Map<BenchPlan.Group, Measurements> groups, BenchPlan plan) {
        this.groups = groups;
        this.plan = plan;
    }

    /** The measurements of the group {@link #in} chose. */
    private Measurements m() {
        return Objects.requireNonNull(m, "in(group) first");
    }

    /** Every line whose benchmarks ran; lines of benchmarks left out of the run are left out. */
    static List<BenchRow> of(Map<BenchPlan.Group, Measurements> groups, BenchPlan plan) {
        RocksRows r = new RocksRows(groups, plan);
        r.in(BenchPlan.Group.WRITES).writes();
        r.in(BenchPlan.Group.HOTKEY).hotKey();
        r.in(BenchPlan.Group.READS).reads();
        r.in(BenchPlan.Group.LISTING).listing();
        r.in(BenchPlan.Group.BULK).bulk();
        return r.rows;
    }

    private RocksRows in(BenchPlan.Group group) {
        m = groups.getOrDefault(group, new Measurements());
        return this;
    }

    private Optional<Double> write(String method, String backend, String durability) {
        return m().score("WriteBenchmark." + method, Map.of("backend", backend, "durability", durability));
    }

    /** The ratio of each round (lake-meta's trial over the raw trial of the same round), to show the spread. */
    private String rounds(String benchmark, Map<String, String> params) {
        return rounds(benchmark, params, false);
    }

    /** As above; {@code times} when the scores are times, so a round's rate ratio is raw over lake-meta. */
    private String rounds(String benchmark, Map<String, String> params, boolean times) {
        Map<String, String> lake = new java.util.HashMap<>(params);
        lake.put("backend", LAKE);
        Map<String, String> raw = new java.util.HashMap<>(params);
        raw.put("backend", RAW);
        List<Double> a = m().scores(benchmark, lake);
        List<Double> b = m().scores(benchmark, raw);
        if (a.size() < 2 || a.size() != b.size()) {
            return "";
        }
        StringBuilder note = new StringBuilder("rounds:");
        for (int i = 0; i < a.size(); i++) {
            note.append(i == 0 ? " " : ", ").append(BenchRow.format(times ? b.get(i) / a.get(i) : a.get(i) / b.get(i)));
        }
        return note.toString();
    }

    private void add(
            String row,
            String unit,
            Optional<Double> value,
            String against,
            Optional<Double> baseline,
            Target target,
            String note) {
        if (value.isPresent() && baseline.isPresent()) {
            rows.add(new BenchRow(row, unit, value.get(), against, baseline.get(), target, note));
        }
    }

    private void writes() {
        writeVsRaw("RocksDB synced CAS, 1 thread", "cas1", SYNCED, "raw synced put, 1 thread", Target.atLeast(0.95));
        writeVsRaw("RocksDB synced CAS, 16 threads", "cas16", SYNCED, "raw synced put, 16 threads", Target.atLeast(2));
        add(
                "RocksDB synced CAS, 16 threads vs 1",
                "ops/s",
                write("cas16", LAKE, SYNCED),
                "lake-meta synced CAS, 1 thread",
                write("cas1", LAKE, SYNCED),
                Target.atLeast(8),
                "");
        writeVsRaw(
                "RocksDB synced create, 16 threads",
                "create16",
                SYNCED,
                "raw synced put, 16 threads",
                Target.atLeast(2));
        writeVsRaw(
                "RocksDB unsynced CAS, 1 thread", "cas1", UNSYNCED, "raw unsynced put, 1 thread", Target.atLeast(0.8));
        writeVsRaw(
                "RocksDB unsynced CAS, 16 threads",
                "cas16",
                UNSYNCED,
                "raw unsynced put, 16 threads",
                Target.atLeast(1));
    }

    /** A write benchmark's lake-meta figure against raw RocksDB's, with the paired rounds. */
    private void writeVsRaw(String row, String method, String durability, String against, Target target) {
        add(
                row,
                "ops/s",
                write(method, LAKE, durability),
                against,
                write(method, RAW, durability),
                target,
                rounds("WriteBenchmark." + method, Map.of("durability", durability)));
    }

    private void hotKey() {
        Map<String, String> synced = Map.of("durability", SYNCED);
        Optional<Double> successes = m().secondary("HotKeyBenchmark.readThenCas", synced, "successes");
        Optional<Double> conflicts = m().secondary("HotKeyBenchmark.readThenCas", synced, "conflicts");
        String note = successes.isPresent() && conflicts.isPresent() && successes.get() > 0
                ? String.format(Locale.ROOT, "%.2f conflicts per success", conflicts.get() / successes.get())
                : "";
        add(
                "RocksDB hot key, 16 threads read-then-CAS: successes",
                "ops/s",
                successes,
                "raw synced put, 1 thread",
                write("cas1", RAW, SYNCED),
                Target.atLeast(0.5),
                note);
    }

    private void reads() {
        for (String method : List.of("get1", "get4")) {
            String threads = method.equals("get1") ? "1 thread" : "4 threads";
            add(
                    "RocksDB point read, " + threads,
                    "ops/s",
                    m().score("ReadBenchmark." + method, Map.of("backend", LAKE)),
                    "raw get, " + threads,
                    m().score("ReadBenchmark." + method, Map.of("backend", RAW)),
                    Target.atLeast(0.9),
                    rounds("ReadBenchmark." + method, Map.of()));
        }
    }

    private void listing() {
        add(
                String.format(Locale.ROOT, "RocksDB listing of %,d keys in pages of 1,000 (time)", plan.listedKeys()),
                "ms",
                m().score("ListingBenchmark.listFamily", Map.of("backend", LAKE)),
                "raw iterator over the same keys",
                m().score("ListingBenchmark.listFamily", Map.of("backend", RAW)),
                Target.atMost(1.3),
                rounds("ListingBenchmark.listFamily", Map.of()));
    }

    private void bulk() {
        for (String durability : List.of(SYNCED, UNSYNCED)) {
            String kind = durability.equals(SYNCED) ? "synced" : "unsynced";
            add(
                    String.format(
                            Locale.ROOT,
                            "RocksDB %s bulk load of %,d keys, transactions of 100",
                            kind,
                            plan.loadedKeys()),
                    "keys/s",
                    bulkRate(LAKE, durability),
                    "raw WriteBatch of 100, " + kind,
                    bulkRate(RAW, durability),
                    Target.atLeast(0.5),
                    rounds("BulkLoadBenchmark.load", Map.of("durability", durability), true));
        }
    }

    private Optional<Double> bulkRate(String backend, String durability) {
        return m().score("BulkLoadBenchmark.load", Map.of("backend", backend, "durability", durability))
                .map(ms -> plan.loadedKeys() / (ms / 1000.0));
    }
}
