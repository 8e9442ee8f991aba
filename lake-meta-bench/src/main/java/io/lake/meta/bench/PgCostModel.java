package io.lake.meta.bench;

import io.lake.meta.testkit.postgres.CuttingProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;

/**
 * What each PostgreSQL call costs in round trips, counted rather than timed, so the figures are
 * exact on any machine (as the DynamoDB cost model counts requests): both sides talk to the
 * server through a loopback proxy that counts each time the client speaks after the server's
 * answer, over a pool of one connection opened beforehand, and each operation runs
 * {@value #CALLS} times.
 */
final class PgCostModel {

    static final int CALLS = 20;

    private PgCostModel() {}

    static List<BenchRow> rows(PgServer server) {
        URI target = URI.create(server.jdbcUrl().substring("jdbc:".length()));
        if (target.getHost() == null) {
            return List.of(); // a URL the proxy cannot stand in front of (several hosts): no counted rows
        }
        try (CuttingProxy proxy = new CuttingProxy(target.getHost(), target.getPort() < 0 ? 5432 : target.getPort())) {
            String proxied = "jdbc:postgresql://127.0.0.1:" + proxy.port() + target.getRawPath()
                    + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
            PgServer through = new PgServer(proxied, server.user());
            double[] lake = perCall(PgBackend.LAKE_META, through, proxy);
            double[] raw = perCall(PgBackend.RAW_JDBC, through, proxy);
            List<BenchRow> rows = new ArrayList<>();
            String[] operations = {"CAS (update)", "first page of 100", "getAll of 16 keys"};
            String[] against = {"raw UPDATE in autocommit", "raw SELECT ... LIMIT 101", "raw SELECT ... = ANY(?)"};
            double[] bounds = {3, 1, 1};
            for (int i = 0; i < operations.length; i++) {
                rows.add(new BenchRow(
                        "PostgreSQL " + operations[i] + ": round trips",
                        "round trips",
                        lake[i],
                        against[i],
                        raw[i],
                        Target.atMost(bounds[i]),
                        String.format(Locale.ROOT, "counted over %d calls", CALLS)));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the round-trip counting proxy", e);
        }
    }

    /** Round trips per call of CAS, first page and getAll. */
    private static double[] perCall(PgBackend backend, PgServer server, CuttingProxy proxy) {
        try (PgBenchStore store = backend.open(server, 1)) {
            List<BenchKey> family = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                BenchKey key = BenchKey.of(String.format("page/table-%06d", i));
                store.create(key, BenchValue.seeded(i));
                family.add(key);
            }
            BenchKey writer = BenchKey.of("cas/writer-0");
            BenchValue[] values = {BenchValue.seeded(0), BenchValue.seeded(1)};
            store.create(writer, values[0]);
            int[] turn = {0};
            double cas = count(
                    proxy,
                    s -> {
                        boolean applied = s.compareAndSet(writer, values[turn[0]], values[1 - turn[0]]);
                        turn[0] = 1 - turn[0];
                        return applied ? 1 : 0;
                    },
                    store);
            double page = count(proxy, s -> s.firstPage("page/", 100), store);
            double getAll = count(proxy, s -> s.getAll(family.subList(40, 56)), store);
            return new double[] {cas, page, getAll};
        }
    }

    private static double count(CuttingProxy proxy, ToIntFunction<PgBenchStore> call, PgBenchStore store) {
        // the first call may prepare statements or read the catalog; steady state is what is counted
        int unused = call.applyAsInt(store);
        long before = proxy.roundTrips();
        for (int i = 0; i < CALLS; i++) {
            unused += call.applyAsInt(store); // round trips are counted, not answers
        }
        return (double) (proxy.roundTrips() - before) / CALLS;
    }
}
