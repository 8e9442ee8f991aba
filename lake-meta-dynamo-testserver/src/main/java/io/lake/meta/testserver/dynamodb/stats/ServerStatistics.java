package io.lake.meta.testserver.dynamodb.stats;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-table counters, safe under concurrent requests. Statistics survive a table's deletion.
 *
 * @since 0.1.0
 */
public final class ServerStatistics {

    private final ConcurrentHashMap<String, Counters> tables = new ConcurrentHashMap<>();

    /** No counts yet; a server has its own ({@code DynamoDbTestServer.statistics()}). */
    public ServerStatistics() {}

    private static final class Counters {
        final ConcurrentHashMap<String, LongAdder> requests = new ConcurrentHashMap<>();
        final LongAdder evaluated = new LongAdder();
        final LongAdder returned = new LongAdder();
        final DoubleAdder read = new DoubleAdder();
        final DoubleAdder write = new DoubleAdder();
    }

    private Counters counters(String table) {
        return tables.computeIfAbsent(table, t -> new Counters());
    }

    /** A snapshot for one table; all zero when the server never saw it. */
    public TableStatistics table(String table) {
        Counters c = tables.get(table);
        if (c == null) {
            return new TableStatistics(Map.of(), 0, 0, 0, 0);
        }
        Map<String, Long> requests = new TreeMap<>();
        c.requests.forEach((op, n) -> requests.put(op, n.sum()));
        return new TableStatistics(
                Map.copyOf(requests), c.evaluated.sum(), c.returned.sum(), c.read.sum(), c.write.sum());
    }

    /** Forgets every counter. */
    public void reset() {
        tables.clear();
    }

    /** Counts a request of {@code operation} naming {@code table}. */
    public void request(String table, String operation) {
        counters(table)
                .requests
                .computeIfAbsent(operation, o -> new LongAdder())
                .increment();
    }

    /** Counts {@code items} evaluated for {@code table}. */
    public void evaluated(String table, long items) {
        counters(table).evaluated.add(items);
    }

    /** Counts {@code items} returned from {@code table}. */
    public void returned(String table, long items) {
        counters(table).returned.add(items);
    }

    /** Counts read capacity {@code units} consumed on {@code table}. */
    public void read(String table, double units) {
        counters(table).read.add(units);
    }

    /** Counts write capacity {@code units} consumed on {@code table}. */
    public void write(String table, double units) {
        counters(table).write.add(units);
    }
}
