package io.lake.meta.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaseRecord;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lease clock option: {@link PostgresMetaStore#serverClock} reads the server's clock, so a
 * lease record written through it expires at the server's time plus the lease, whatever the
 * candidate's own clock says; when the server cannot be read it falls back to the local clock plus
 * the last measured offset, and before any reading it fails like the store.
 */
class PostgresServerClockTest {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    private static long serverMillis() throws SQLException {
        try (Connection connection = DB.database().pool().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void aReading_liesBetweenTwoReadingsOfTheServerClock() throws Exception {
        Clock clock = PostgresMetaStore.serverClock(DB.database().pool());
        long before = serverMillis();
        long reading = clock.millis();
        long after = serverMillis();
        assertThat(reading).isBetween(before, after);
    }

    @Test
    void anElectionOnTheServerClock_writesExpiryInServerTime() throws Exception {
        MetaKey lease = MetaKey.of("lease/orders-writer");
        Duration duration = Duration.ofSeconds(10);
        try (MetaStore store = DB.newStore();
                LeaderElection election = LeaderElection.builder()
                        .store(store)
                        .leaseKey(lease)
                        .candidateId("node-1")
                        .leaseDuration(duration)
                        .renewInterval(Duration.ofSeconds(3))
                        .clock(PostgresMetaStore.serverClock(DB.database().pool()))
                        .build()) {
            long before = serverMillis();
            election.campaignOnce();
            long after = serverMillis();

            assertThat(election.isLeader()).isTrue();
            LeaseRecord record = LeaseRecord.decode(lease, store.get(lease).orElseThrow());
            assertThat(record.expiresAtMillis()).isBetween(before + duration.toMillis(), after + duration.toMillis());
        }
    }

    @Test
    void whenTheServerCannotBeRead_theLastOffsetCorrectsTheLocalClock_andWithoutOneItFails() throws Exception {
        AtomicBoolean down = new AtomicBoolean();
        DataSource pool = DB.database().pool();
        DataSource flaky = (DataSource) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && down.get()) {
                        throw new SQLException("injected: server unreachable", "08001");
                    }
                    return method.invoke(pool, args);
                });

        down.set(true);
        assertThatThrownBy(() -> PostgresMetaStore.serverClock(flaky).millis())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("server unreachable");

        Clock clock = PostgresMetaStore.serverClock(flaky);
        down.set(false);
        long measured = clock.millis();
        down.set(true);
        long before = serverMillis();
        long fallback = clock.millis();
        long after = serverMillis();
        // the local clock plus the offset measured at the last reading: the server's time, give or take that read's
        // latency
        long tolerance = 1_000;
        assertThat(fallback).isGreaterThanOrEqualTo(measured).isBetween(before - tolerance, after + tolerance);
    }
}
