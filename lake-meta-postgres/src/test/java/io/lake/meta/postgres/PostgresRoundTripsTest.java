package io.lake.meta.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.testkit.postgres.CuttingProxy;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What each call costs in round trips to the server, counted by the proxy between a one-connection
 * pool and the server (the connection is opened beforehand, so only the call's own exchanges
 * count): the figures of the guide's cost table.
 */
class PostgresRoundTripsTest {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    private static final MetaKey A = MetaKey.of("tbl/ns1/a");
    private static final MetaKey B = MetaKey.of("tbl/ns1/b");

    @Test
    void everyCall_takesTheRoundTripsTheGuideSays() throws Exception {
        PostgresTestTarget target = DB.database().target();
        String table = DB.database().newTableName();
        try (CuttingProxy proxy = new CuttingProxy(target.host(), target.port());
                HikariDataSource pool = onePooledConnection(target, proxy);
                MetaStore store = PostgresMetaStore.builder()
                        .dataSource(pool)
                        .table(table)
                        .createTableIfMissing(true)
                        .build()) {
            store.create(A, MetaValue.utf8("1")); // warms the connection (and its prepared statements) up

            assertThat(roundTrips(proxy, () -> store.get(A))).as("get").isEqualTo(1);
            assertThat(roundTrips(proxy, () -> store.getAll(List.of(A, B))))
                    .as("getAll")
                    .isEqualTo(1);
            assertThat(roundTrips(proxy, () -> store.page(KeyPrefix.of("tbl/"), 10)))
                    .as("page")
                    .isEqualTo(1);
            assertThat(roundTrips(proxy, () -> {
                        assertThat(store.update(A, MetaValue.utf8("1"), MetaValue.utf8("2")))
                                .isEqualTo(WriteResult.applied());
                        return null;
                    }))
                    .as("an applied update")
                    .isEqualTo(3);
            assertThat(roundTrips(proxy, () -> {
                        assertThat(store.update(A, MetaValue.utf8("stale"), MetaValue.utf8("3"))
                                        .isConflict())
                                .isTrue();
                        return null;
                    }))
                    .as("a conflicting update")
                    .isEqualTo(2);
            assertThat(roundTrips(proxy, () -> {
                        assertThat(store.transact(Transaction.builder()
                                        .requireHolds(A, MetaValue.utf8("2"))
                                        .create(B, MetaValue.utf8("b"))
                                        .build()))
                                .isEqualTo(TransactionResult.applied());
                        return null;
                    }))
                    .as("an applied two-key transaction")
                    .isEqualTo(3);
        }
    }

    private static long roundTrips(CuttingProxy proxy, Supplier<?> call) {
        long before = proxy.roundTrips();
        var unused = call.get(); // round trips are counted, not answers
        return proxy.roundTrips() - before;
    }

    private static HikariDataSource onePooledConnection(PostgresTestTarget target, CuttingProxy proxy) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(target.direct(DB.database().name(), "127.0.0.1", proxy.port()));
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        return new HikariDataSource(config);
    }
}
