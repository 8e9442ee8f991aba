package io.lake.meta.postgres;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One conditional write: a plain mutation, or a transaction (a guarded mutation is the transaction
 * of its guard and its target). Three round trips on one connection:
 *
 * <ol>
 *   <li>{@code SET TRANSACTION ISOLATION LEVEL READ COMMITTED}, {@code SET LOCAL
 *       synchronous_commit TO on}, the keys' advisory locks, then the keys' rows: four statements
 *       sent together. The rows are read by a statement that starts after the locks are held, so
 *       under READ COMMITTED it sees every commit of a previous holder. (Under REPEATABLE READ the
 *       snapshot would predate the locks: the isolation level is set here whatever the pool's
 *       default.) {@code synchronous_commit} is set for the same reason: a role, database or pool
 *       may have turned it off, and then COMMIT answers before its WAL is flushed, so an "applied"
 *       answer could vanish in a server crash.</li>
 *   <li>the preconditions are checked here; if one fails, the transaction is rolled back and the
 *       answer names every failure with the value found. Otherwise {@link RaceHooks#COMMIT_CHECKED}
 *       is reached, then one statement deletes and upserts every key and returns the transaction id
 *       ({@code pg_current_xact_id()}) and the session's pid;</li>
 *   <li>{@code COMMIT}.</li>
 * </ol>
 *
 * <p>Faults: a serialization failure or deadlock before {@code COMMIT} (possible only when other
 * programs lock the same rows) is retried, up to {@value #ATTEMPTS} attempts in all, then answered
 * {@link StoreUnavailableException}. Any other failure before {@code COMMIT} was sent leaves the
 * transaction uncommitted (the server rolls it back when the session ends), so it is answered
 * {@link StoreUnavailableException}: nothing applied. A failure of {@code COMMIT} itself is
 * settled by the {@link CommitResolver} from the transaction id.
 */
final class PgCommit {

    private static final Logger LOG = LoggerFactory.getLogger(PgCommit.class);

    /** Attempts of one commit when the server refuses it with a serialization failure or deadlock. */
    static final int ATTEMPTS = 5;

    private final DataSource dataSource;
    private final RaceHooks hooks;
    private final CommitResolver resolver;
    private final String description;
    private final KeyLocks locks;
    private final String lockAndReadSql;
    private final String writeSql;

    PgCommit(DataSource dataSource, TableName table, RaceHooks hooks, CommitResolver resolver, String description) {
        this.dataSource = dataSource;
        this.hooks = hooks;
        this.resolver = resolver;
        this.description = description;
        this.locks = new KeyLocks(table);
        this.lockAndReadSql = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;"
                + " SET LOCAL synchronous_commit TO on;" // a role or pool may have turned it off: no lost "applied"
                + " SELECT count(pg_advisory_xact_lock(id)) FROM unnest(?::bigint[]) AS id;"
                + " SELECT k, v FROM " + table.sql() + " WHERE k = ANY(?)";
        this.writeSql = "WITH removed AS (DELETE FROM " + table.sql() + " WHERE k = ANY(?)),"
                + " written AS (INSERT INTO " + table.sql() + " (k, v) SELECT * FROM unnest(?::bytea[], ?::bytea[])"
                + " ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v)"
                + " SELECT pg_current_xact_id()::text, pg_backend_pid()";
    }

    Decision run(List<Condition> conditions, List<Mutation> mutations) {
        List<MetaKey> keys = new ArrayList<>(conditions.size() + mutations.size());
        conditions.forEach(c -> keys.add(c.key()));
        mutations.forEach(m -> keys.add(m.key()));
        long[] lockIds = locks.lockIds(keys);
        String what = "the commit of " + mutations.size() + " mutation(s) starting at "
                + mutations.get(0).key();
        KeyLocks.Held held;
        try {
            held = locks.lockLocally(lockIds);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(
                    description + ": interrupted while waiting for another writer of the same"
                            + " keys in this process; nothing was applied",
                    e);
        }
        try (held) {
            for (int attempt = 1; ; attempt++) {
                try {
                    return attempt(conditions, mutations, keys, lockIds, what);
                } catch (Refused e) {
                    if (attempt >= ATTEMPTS) {
                        throw new StoreUnavailableException(
                                description + ": the server refused " + what + " " + attempt + " times ("
                                        + e.refusal.getMessage() + "); nothing was applied",
                                e.refusal);
                    }
                    LOG.debug(
                            "{}: {} refused ({}); attempt {} of {}",
                            description,
                            what,
                            e.refusal.getMessage(),
                            attempt + 1,
                            ATTEMPTS);
                }
            }
        }
    }

    private Decision attempt(
            List<Condition> conditions, List<Mutation> mutations, List<MetaKey> keys, long[] lockIds, String what)
            throws Refused {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw new StoreUnavailableException(
                    description + ": no connection for " + what + " (" + e.getMessage() + "); nothing was applied", e);
        }
        String xid;
        int backendPid;
        int sessionPid = CommitResolver.backendPidOf(connection); // known without a round trip
        try {
            connection.setAutoCommit(false);
            Map<MetaKey, MetaValue> current = lockAndRead(connection, keys, lockIds);
            Decision decision = Decision.check(conditions, mutations, current);
            if (!decision.applies()) {
                connection.rollback();
                close(connection);
                return decision;
            }
            hooks.reached(RaceHooks.COMMIT_CHECKED);
            try (PreparedStatement write = connection.prepareStatement(writeSql)) {
                List<byte[]> deleted = new ArrayList<>();
                List<byte[]> writtenKeys = new ArrayList<>();
                List<byte[]> writtenValues = new ArrayList<>();
                for (Mutation mutation : mutations) {
                    Optional<MetaValue> value = mutation.newValue();
                    if (value.isPresent()) {
                        writtenKeys.add(mutation.key().utf8());
                        writtenValues.add(value.get().toByteArray());
                    } else {
                        deleted.add(mutation.key().utf8());
                    }
                }
                write.setArray(1, connection.createArrayOf("bytea", deleted.toArray(byte[][]::new)));
                write.setArray(2, connection.createArrayOf("bytea", writtenKeys.toArray(byte[][]::new)));
                write.setArray(3, connection.createArrayOf("bytea", writtenValues.toArray(byte[][]::new)));
                try (ResultSet rows = write.executeQuery()) {
                    rows.next();
                    xid = rows.getString(1);
                    backendPid = rows.getInt(2);
                }
            }
        } catch (SQLException e) {
            abandon(connection);
            if (isRefusal(e)) {
                throw new Refused(e);
            }
            if (isConnectionFailure(e)) {
                // In a partition the server's session may live on, idle in this transaction and
                // holding the keys' advisory locks, until it notices the dead peer (TCP keepalive:
                // hours by default). Nothing will ever COMMIT it: end it, so other writers of the
                // keys do not wait for it.
                resolver.endAbandonedSession(sessionPid, lockIds, what);
            }
            throw new StoreUnavailableException(
                    description + ": " + what + " failed before COMMIT was sent (" + e.getMessage()
                            + "); nothing was applied",
                    e);
        } catch (RuntimeException | Error e) {
            abandon(connection);
            throw e;
        }
        try {
            connection.commit();
        } catch (SQLException lost) {
            abandon(connection);
            CommitResolver.Outcome outcome = resolver.resolve(xid, backendPid, what, lost);
            if (outcome == CommitResolver.Outcome.ABORTED) {
                throw new StoreUnavailableException(
                        description + ": " + what + " was not committed (" + lost.getMessage()
                                + "); the server reports transaction " + xid + " aborted, so nothing was applied",
                        lost);
            }
            return Decision.APPLIED;
        }
        close(connection);
        return Decision.APPLIED;
    }

    private Map<MetaKey, MetaValue> lockAndRead(Connection connection, List<MetaKey> keys, long[] lockIds)
            throws SQLException {
        Map<MetaKey, MetaValue> current = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(lockAndReadSql)) {
            statement.setArray(
                    1,
                    connection.createArrayOf(
                            "bigint", Arrays.stream(lockIds).boxed().toArray()));
            statement.setArray(
                    2,
                    connection.createArrayOf(
                            "bytea", keys.stream().map(MetaKey::utf8).toArray(byte[][]::new)));
            boolean isRows = statement.execute();
            ResultSet last = null;
            while (true) {
                if (isRows) {
                    if (last != null) {
                        last.close();
                    }
                    last = statement.getResultSet();
                } else if (statement.getUpdateCount() == -1) {
                    break;
                }
                isRows = statement.getMoreResults(Statement.KEEP_CURRENT_RESULT);
            }
            if (last == null) {
                throw new SQLException("the read of the locked keys returned no rows result");
            }
            try (ResultSet rows = last) {
                while (rows.next()) {
                    current.put(MetaKey.fromUtf8(rows.getBytes(1)), MetaValue.of(rows.getBytes(2)));
                }
            }
        }
        return current;
    }

    /** Serialization failures and deadlocks: the server rolled the transaction back; trying again is safe. */
    private static boolean isRefusal(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    /** The connection itself failed (SQL state class 08): the server may not know yet. */
    private static boolean isConnectionFailure(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("08");
    }

    /** Rolls back what the connection may hold and returns it; a failure here changes nothing (the server rolls back a dead session). */
    private void abandon(Connection connection) {
        try {
            if (!connection.isClosed()) {
                connection.rollback();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("{}: rollback after a failure failed too ({})", description, e.toString());
        }
        close(connection);
    }

    private void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("{}: closing a connection failed ({})", description, e.toString());
        }
    }

    /** A refusal the server allows retrying: nothing was applied. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        final SQLException refusal;

        Refused(SQLException cause) {
            super(cause);
            this.refusal = cause;
        }
    }

    /** The outcome of checking a commit; {@link #applies()} tells whether its writes must be made. */
    static final class Decision {

        static final Decision APPLIED = new Decision(List.of());

        private final List<TransactionFailure> failures;

        private Decision(List<TransactionFailure> failures) {
            this.failures = failures;
        }

        /** Checks every condition, then every mutation's precondition, against {@code current}; names all that fail. */
        static Decision check(List<Condition> conditions, List<Mutation> mutations, Map<MetaKey, MetaValue> current) {
            List<TransactionFailure> failures = new ArrayList<>();
            for (Condition condition : conditions) {
                Optional<MetaValue> found = Optional.ofNullable(current.get(condition.key()));
                if (!condition.isMet(found)) {
                    failures.add(TransactionFailure.found(condition.key(), found));
                }
            }
            for (Mutation mutation : mutations) {
                Optional<MetaValue> found = Optional.ofNullable(current.get(mutation.key()));
                if (!mutation.preconditionHolds(found)) {
                    failures.add(TransactionFailure.found(mutation.key(), found));
                }
            }
            return failures.isEmpty() ? APPLIED : new Decision(failures);
        }

        boolean applies() {
            return failures.isEmpty();
        }

        WriteResult writeResult() {
            return applies() ? WriteResult.applied() : failures.get(0).asWriteResult();
        }

        TransactionResult transactionResult() {
            return applies() ? TransactionResult.applied() : TransactionResult.notApplied(failures);
        }
    }
}
