package io.lake.meta.postgres;

import io.lake.meta.OutcomeUnknownException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles a commit whose answer was lost (its connection failed while {@code COMMIT} was in
 * flight) by asking the server, on new connections, what became of its transaction id:
 *
 * <ul>
 *   <li>{@code committed}: the commit applied;</li>
 *   <li>{@code aborted}: nothing applied;</li>
 *   <li>{@code in progress}: the old session has not ended yet (the server may not have noticed the
 *       lost connection, or is still committing, say waiting for a synchronous standby). The
 *       resolver asks again; once {@link #SESSION_GRACE} has passed (or half the timeout, if less)
 *       it ends that session ({@code pg_terminate_backend}, only while the session still runs this
 *       very transaction), which settles the transaction either way;</li>
 *   <li>no answer ({@code NULL}: the id is too old for the server to remember), or no connection
 *       until the timeout: {@link OutcomeUnknownException}, naming the transaction id.</li>
 * </ul>
 */
final class CommitResolver {

    private static final Logger LOG = LoggerFactory.getLogger(CommitResolver.class);

    /** The first pause between two questions; doubled up to {@link #MAX_PAUSE}. */
    private static final Duration FIRST_PAUSE = Duration.ofMillis(5);

    private static final Duration MAX_PAUSE = Duration.ofMillis(500);

    /**
     * How long an old session still running the transaction is left to finish on its own before
     * the resolver ends it: a COMMIT under way (a synchronous standby's acknowledgement, say)
     * normally completes in far less.
     */
    static final Duration SESSION_GRACE = Duration.ofSeconds(1);

    /** What the server said about a transaction. */
    enum Outcome {
        COMMITTED,
        ABORTED
    }

    private final DataSource dataSource;
    private final Duration timeout;
    private final String description;

    CommitResolver(DataSource dataSource, Duration timeout, String description) {
        this.dataSource = dataSource;
        this.timeout = timeout;
        this.description = description;
    }

    /**
     * @param xid the transaction's {@code pg_current_xact_id()}, as text
     * @param backendPid the {@code pg_backend_pid()} of the session that ran it
     * @param what the commit, for messages
     * @param lost why the answer was lost
     * @throws OutcomeUnknownException if the server could not say within the timeout
     */
    Outcome resolve(String xid, int backendPid, String what, SQLException lost) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long grace = Math.min(SESSION_GRACE.toNanos(), timeout.toNanos() / 2);
        Duration pause = FIRST_PAUSE;
        String lastAnswer = "no answer yet";
        while (true) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                String status = statusOf(connection, xid);
                if (status == null) {
                    throw unknown(what, "the server no longer remembers transaction " + xid, lost);
                }
                switch (status) {
                    case "committed":
                        LOG.info("{}: the answer to {} was lost; transaction {} committed", description, what, xid);
                        return Outcome.COMMITTED;
                    case "aborted":
                        LOG.info("{}: the answer to {} was lost; transaction {} aborted", description, what, xid);
                        return Outcome.ABORTED;
                    default: // in progress: its session lives on until the server notices the lost connection
                        lastAnswer = "the server still reported it " + status;
                        if (System.nanoTime() - start >= grace) {
                            endSession(connection, xid, backendPid);
                        }
                        break;
                }
            } catch (SQLException e) {
                lastAnswer = "the last attempt to ask failed: " + e.getMessage();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw unknown(
                        what,
                        "the server did not settle transaction " + xid + " within " + timeout + " (" + lastAnswer + ")",
                        lost);
            }
            try {
                Thread.sleep(Math.max(1, Math.min(pause.toMillis(), left / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw unknown(what, "interrupted while asking about transaction " + xid, lost);
            }
            pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
        }
    }

    private static String statusOf(Connection connection, String xid) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT pg_xact_status(?::xid8)")) {
            query.setString(1, xid);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }

    /**
     * Ends the session that still runs transaction {@code xid}: only a session of that pid whose
     * current transaction is that xid (a pid can be reused, a transaction id is not).
     */
    private void endSession(Connection connection, String xid, int backendPid) throws SQLException {
        String shortXid = Long.toUnsignedString(Long.parseUnsignedLong(xid) & 0xFFFF_FFFFL); // backend_xid is 32-bit
        try (PreparedStatement terminate = connection.prepareStatement("SELECT pg_terminate_backend(pid)"
                + " FROM pg_stat_activity WHERE pid = ? AND backend_xid::text = ?")) {
            terminate.setInt(1, backendPid);
            terminate.setString(2, shortXid);
            try (ResultSet rows = terminate.executeQuery()) {
                if (rows.next()) {
                    LOG.info(
                            "{}: ended session {} that still ran transaction {} after its connection was lost",
                            description,
                            backendPid,
                            xid);
                }
            }
        }
    }

    /**
     * The server pid of {@code connection}'s session as the driver learned it at connect time (no
     * round trip), or 0 when the data source is not PostgreSQL's driver (or a pool that cannot
     * unwrap it).
     */
    static int backendPidOf(Connection connection) {
        try {
            return connection.isWrapperFor(PGConnection.class)
                    ? connection.unwrap(PGConnection.class).getBackendPID()
                    : 0;
        } catch (SQLException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Ends, once and best effort, the session {@code pid} whose connection failed before
     * {@code COMMIT} was sent, if it still holds the advisory lock of this commit's first key
     * (a pid can be reused; a session holding that lock is this commit's, or another writer of
     * the key that would itself answer "not applied" or resolve its own commit). Nothing will
     * commit that transaction: ending it only releases its locks sooner than the server's own
     * detection of the dead peer would. A failure here is logged and changes the answer in nothing.
     */
    void endAbandonedSession(int pid, long[] lockIds, String what) {
        if (pid == 0 || lockIds.length == 0) {
            return;
        }
        long first = lockIds[0];
        try (Connection connection = dataSource.getConnection();
                PreparedStatement terminate = connection.prepareStatement("SELECT pg_terminate_backend(l.pid)"
                        + " FROM pg_locks l WHERE l.pid = ? AND l.pid <> pg_backend_pid() AND l.locktype = 'advisory'"
                        + " AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                        + " AND l.classid::bigint = ? AND l.objid::bigint = ? AND l.objsubid = 1")) {
            connection.setAutoCommit(true);
            terminate.setInt(1, pid);
            terminate.setLong(2, first >>> 32);
            terminate.setLong(3, first & 0xFFFF_FFFFL);
            try (ResultSet rows = terminate.executeQuery()) {
                if (rows.next()) {
                    LOG.info(
                            "{}: ended session {} left holding the locks of {} after its connection failed",
                            description,
                            pid,
                            what);
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug(
                    "{}: could not end session {} after its connection failed ({}); the server ends it when it"
                            + " notices",
                    description,
                    pid,
                    e.toString());
        }
    }

    private OutcomeUnknownException unknown(String what, String why, SQLException lost) {
        return new OutcomeUnknownException(
                description + ": the answer to " + what + " was lost (" + lost.getMessage() + ") and " + why
                        + "; re-read to learn whether it applied",
                lost);
    }
}
