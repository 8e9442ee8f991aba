package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.Json;
import io.lake.meta.dynamo.BackfillPage;
import io.lake.meta.dynamo.MigrationStatus;
import io.lake.meta.dynamo.ParityReport;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What one {@code dynamo-migrate} run did, printed once at its end: a few lines of text, or with
 * {@code --json} exactly one JSON object on stdout. Values are never printed (they may be secret):
 * keys, counts, digests and the barrier's holder only.
 */
final class MigrationSummary {

    private final Map<String, Object> fields = new LinkedHashMap<>();

    MigrationSummary(String action, String legacyTable, String table) {
        fields.put("command", "dynamo-migrate");
        fields.put("action", action);
        fields.put("legacyTable", legacyTable);
        fields.put("table", table);
    }

    MigrationSummary outcome(String outcome) {
        fields.put("outcome", outcome);
        return this;
    }

    MigrationSummary error(@Nullable String message) {
        fields.put("error", message);
        return this;
    }

    MigrationSummary backfill(BackfillPage.BackfillTotals totals) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("pages", totals.pages());
        b.put("scanned", totals.scanned());
        b.put("copied", totals.copied());
        b.put("alreadyEqual", totals.alreadyEqual());
        b.put("reloaded", totals.reloaded());
        b.put("done", totals.done());
        fields.put("backfill", b);
        return this;
    }

    MigrationSummary run(long pages, long items, long nanos) {
        Map<String, Object> r = new LinkedHashMap<>();
        double seconds = nanos / 1e9;
        r.put("pages", pages);
        r.put("itemsScanned", items);
        r.put("seconds", Math.round(seconds * 1000) / 1000.0);
        r.put("itemsPerSecond", seconds <= 0 ? 0 : Math.round(items / seconds * 10) / 10.0);
        fields.put("run", r);
        return this;
    }

    MigrationSummary status(MigrationStatus status) {
        backfill(status.backfill());
        fields.put("legacyItemEstimate", status.legacyItemEstimate());
        barrier(status.barrier());
        status.completion()
                .ifPresentOrElse(
                        c -> {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("items", c.items());
                            m.put("digest", c.digest());
                            m.put("finalizedAt", c.finalizedAt().toString());
                            m.put("rollbackHorizonPassed", c.rollbackHorizonPassed());
                            fields.put("completion", m);
                        },
                        () -> fields.put("completion", null));
        return this;
    }

    MigrationSummary barrier(Optional<MigrationStatus.Barrier> barrier) {
        fields.put(
                "barrier",
                barrier.map(b -> {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("holder", b.holder());
                            m.put("installedAt", b.installedAt().toString());
                            return (Object) m;
                        })
                        .orElse(null));
        return this;
    }

    MigrationSummary verification(ParityReport report) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("clean", report.clean());
        v.put("legacyItems", report.legacyItems());
        v.put("v2Items", report.v2Items());
        v.put("legacyDigest", report.legacyDigest());
        v.put("v2Digest", report.v2Digest());
        v.put("differenceCount", report.differenceCount());
        List<Map<String, String>> listed = report.differences().stream()
                .map(d -> Map.of("key", d.key(), "kind", d.kind().name()))
                .toList();
        v.put("differences", listed);
        fields.put("verification", v);
        return this;
    }

    void print(PrintWriter out, boolean json) {
        if (json) {
            out.println(Json.write(fields));
        } else {
            fields.forEach((name, value) -> {
                if (!name.equals("command") && value != null) {
                    out.println(name + ": " + text(value));
                }
            });
        }
        out.flush();
    }

    private static String text(Object value) {
        if (value instanceof Map<?, ?> map) {
            StringBuilder s = new StringBuilder();
            map.forEach((k, v) ->
                    s.append(s.length() == 0 ? "" : ", ").append(k).append(' ').append(text(v)));
            return s.toString();
        }
        if (value instanceof List<?> list) {
            return list.isEmpty()
                    ? "none"
                    : list.stream().map(MigrationSummary::text).toList().toString();
        }
        return String.valueOf(value);
    }
}
