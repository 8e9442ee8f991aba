package io.lake.meta.postgres;

import io.lake.meta.StoreUnavailableException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database server's wall clock ({@code clock_timestamp()}), read on every call: one round trip
 * each. Leases measured on it need no margin for disagreement between the candidates' clocks,
 * since every candidate reads the same clock; what remains is the read's own latency.
 *
 * <p>When the server cannot be read, the clock answers the local clock corrected by the offset
 * measured at the last successful read (and logs it); before any successful read it throws
 * {@link StoreUnavailableException}, as the store itself would.
 */
final class ServerClock extends Clock {

    private static final Logger LOG = LoggerFactory.getLogger(ServerClock.class);
    private static final String NOW = "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint";

    private final DataSource dataSource;
    private volatile @Nullable Long offsetMillis; // server minus local, at the last successful read

    ServerClock(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public long millis() {
        long before = System.currentTimeMillis();
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(NOW)) {
            rows.next();
            long server = rows.getLong(1);
            long after = System.currentTimeMillis();
            offsetMillis = server - (before + (after - before) / 2);
            return server;
        } catch (SQLException e) {
            Long offset = offsetMillis;
            if (offset == null) {
                throw new StoreUnavailableException(
                        "could not read the PostgreSQL server's clock: " + e.getMessage(), e);
            }
            LOG.warn(
                    "could not read the PostgreSQL server's clock ({}); using the local clock corrected by the last"
                            + " measured offset of {} ms",
                    e.getMessage(),
                    offset);
            return System.currentTimeMillis() + offset;
        }
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (ZoneOffset.UTC.equals(zone)) {
            return this;
        }
        throw new UnsupportedOperationException("the PostgreSQL server clock is read in UTC only");
    }

    @Override
    public String toString() {
        return "PostgreSQL server clock";
    }
}
