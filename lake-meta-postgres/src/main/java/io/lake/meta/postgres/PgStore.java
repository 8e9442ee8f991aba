package io.lake.meta.postgres;

import io.lake.meta.BatchKeys;
import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.TooManyFamiliesException;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The MetaStore contract over one PostgreSQL table. Thread-safe; the data source is shared and
 * never closed here.
 *
 * <p>A point read, a {@code getAll} and a page are one statement each, in autocommit (so each sees
 * every transaction committed before it started). A write is a {@link PgCommit}. Writes from other
 * processes land in the same table, so watches cannot hear every commit: a {@link PollingWatcher}
 * lists each watched prefix through {@link #page} once per poll interval.
 */
final class PgStore implements MetaStore, KeyFamilies {

    /** Layout of page tokens; change the format number whenever a position's meaning changes. */
    static final String TOKEN_LAYOUT = "postgres/format=" + TableSetup.FORMAT;

    /**
     * A page stops once its keys and values reach this many bytes (it always holds at least one
     * entry), as RocksDB's does: a page of 10 000 large values must not take gigabytes of heap.
     */
    static final long MAX_PAGE_BYTES = 4L << 20;

    private final DataSource dataSource;
    private final TableName table;
    private final String description;
    private final PageTokenCodec tokens = new PageTokenCodec(TOKEN_LAYOUT, 1);
    private final PgCommit commits;
    private final Duration pollInterval;
    private final PollingWatcher watches;
    private final AtomicBoolean closed = new AtomicBoolean();

    private final String getSql;
    private final String getAllSql;
    private final String firstPageSql;
    private final String nextPageSql;
    final String familiesSql; // package-private: PostgresFamiliesPlanTest explains it

    /**
     * @param table the table as configured, for messages
     * @param resolved the table as the server resolved it ({@link TableSetup#prepare}): every
     *     statement and every advisory lock id uses this, so stores that spell one table differently
     *     still serialize their writers of a key
     */
    PgStore(
            DataSource dataSource,
            TableName table,
            TableName resolved,
            Duration pollInterval,
            Duration resolutionTimeout,
            RaceHooks hooks) {
        this.dataSource = dataSource;
        this.table = resolved;
        this.description = "PostgreSQL store [table=" + table + "]";
        this.commits = new PgCommit(
                dataSource,
                resolved,
                hooks,
                new CommitResolver(dataSource, resolutionTimeout, description),
                description);
        this.pollInterval = pollInterval;
        this.watches = new PollingWatcher(this, pollInterval, description);
        String t = resolved.sql();
        this.getSql = "SELECT v FROM " + t + " WHERE k = ?";
        this.getAllSql = "SELECT k, v FROM " + t + " WHERE k = ANY(?)";
        // Keyset pagination on the primary key; rows past the byte budget come without their value.
        String page = "SELECT k, CASE WHEN before < " + MAX_PAGE_BYTES + " THEN v END FROM (SELECT k, v,"
                + " sum(octet_length(k) + octet_length(v)) OVER (ORDER BY k ROWS UNBOUNDED PRECEDING)"
                + " - octet_length(k) - octet_length(v) AS before FROM " + t + " WHERE k %s ? AND k < ?"
                + " ORDER BY k LIMIT ?) AS p ORDER BY k";
        this.firstPageSql = String.format(page, ">=");
        this.nextPageSql = String.format(page, ">");
        // A skip scan on the primary key: each step is one index probe for the first key past the
        // family before it ('0' is the byte after '/'), so the cost is one probe per family.
        String family = "substring(k FROM 1 FOR position(decode('2f', 'hex') IN k) - 1)";
        this.familiesSql = "WITH RECURSIVE families(f) AS ((SELECT " + family + " FROM " + t + " ORDER BY k LIMIT 1)"
                + " UNION ALL SELECT (SELECT " + family + " FROM " + t + " WHERE k >= families.f || decode('30', 'hex')"
                + " ORDER BY k LIMIT 1) FROM families WHERE families.f IS NOT NULL)"
                + " SELECT f FROM families WHERE f IS NOT NULL LIMIT ?";
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        checkOpen();
        requireArgument(key, "key");
        try (Connection connection = readConnection();
                PreparedStatement query = connection.prepareStatement(getSql)) {
            query.setBytes(1, key.utf8());
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? Optional.of(MetaValue.of(rows.getBytes(1))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw unavailable("could not read " + key, e);
        }
    }

    /** One statement: {@code k = ANY(array)} over the primary key. */
    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        checkOpen();
        List<MetaKey> batch = BatchKeys.requireValid(keys);
        if (batch.isEmpty()) {
            return Map.of();
        }
        Map<MetaKey, MetaValue> read = new HashMap<>();
        try (Connection connection = readConnection();
                PreparedStatement query = connection.prepareStatement(getAllSql)) {
            query.setArray(
                    1,
                    connection.createArrayOf(
                            "bytea", batch.stream().map(MetaKey::utf8).toArray(byte[][]::new)));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    read.put(MetaKey.fromUtf8(rows.getBytes(1)), MetaValue.of(rows.getBytes(2)));
                }
            }
        } catch (SQLException e) {
            throw unavailable("could not read " + batch.size() + " keys", e);
        }
        Map<MetaKey, MetaValue> found = new LinkedHashMap<>();
        for (MetaKey key : batch) {
            MetaValue value = read.get(key);
            if (value != null) {
                found.put(key, value);
            }
        }
        return Collections.unmodifiableMap(found);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        checkOpen();
        requireArgument(mutation, "mutation");
        return commits.run(List.of(), List.of(mutation)).writeResult();
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        checkOpen();
        requireArgument(transaction, "transaction");
        return commits.run(transaction.conditions(), transaction.mutations()).transactionResult();
    }

    @Override
    public Page page(PageRequest request) {
        checkOpen();
        requireArgument(request, "page request");
        KeyPrefix prefix = request.prefix();
        PageCursor cursor = request.token().map(t -> tokens.decode(prefix, t)).orElse(PageCursor.startOf(0));
        Optional<MetaKey> after = cursor.afterKey(prefix);
        int limit = request.limit();
        List<Entry> entries = new ArrayList<>(Math.min(limit, 1024));
        long itemsRead = 0;
        boolean more = false;
        try (Connection connection = readConnection();
                PreparedStatement query = connection.prepareStatement(after.isPresent() ? nextPageSql : firstPageSql)) {
            query.setBytes(1, after.map(MetaKey::utf8).orElse(prefix.utf8()));
            query.setBytes(2, successor(prefix.utf8()));
            query.setInt(3, limit + 1);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    itemsRead++;
                    byte[] value = rows.getBytes(2);
                    if (entries.size() == limit || value == null) { // the look-ahead row, or past the byte budget
                        more = true; // (never the first row: the budget counts the bytes before a row)
                        break;
                    }
                    entries.add(entry(rows.getBytes(1), value));
                }
            }
        } catch (SQLException e) {
            throw unavailable("could not read a page of " + prefix, e);
        }
        Optional<String> next = more
                ? Optional.of(tokens.encode(
                        prefix,
                        PageCursor.after(
                                0, prefix, entries.get(entries.size() - 1).key())))
                : Optional.empty();
        return new Page(entries, next, PageCost.items(itemsRead));
    }

    /**
     * The families by a recursive skip scan over the primary key: one index probe per family, in
     * one statement, never a scan of the table.
     */
    @Override
    public List<String> families() {
        checkOpen();
        List<String> families = new ArrayList<>();
        try (Connection connection = readConnection();
                PreparedStatement query = connection.prepareStatement(familiesSql)) {
            query.setInt(1, MAX_FAMILIES + 1);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    byte[] family = rows.getBytes(1);
                    String name = new String(family, StandardCharsets.UTF_8);
                    try {
                        KeyPrefix.family(name);
                    } catch (InvalidArgumentException e) {
                        throw new StoreUnavailableException(
                                description + " holds a row whose key has no valid family ('" + name
                                        + "'); the table was written by another program",
                                e);
                    }
                    if (families.size() == MAX_FAMILIES) {
                        throw new TooManyFamiliesException(description);
                    }
                    families.add(name);
                }
            }
        } catch (SQLException e) {
            throw unavailable("could not list the key families", e);
        }
        return List.copyOf(families);
    }

    /** The first byte string after every key that starts with {@code prefix}. */
    static byte[] successor(byte[] prefix) {
        byte[] next = prefix.clone();
        for (int i = next.length - 1; i >= 0; i--) {
            if (next[i] != (byte) 0xFF) {
                next[i]++;
                return Arrays.copyOf(next, i + 1);
            }
        }
        throw new InvalidArgumentException("prefix has no successor: " + new String(prefix, StandardCharsets.UTF_8));
    }

    private Entry entry(byte[] key, byte[] value) {
        try {
            return Entry.adopting(key, value);
        } catch (InvalidArgumentException e) {
            throw new StoreUnavailableException(
                    description + " holds a row that is not a valid lake-meta entry (" + e.getMessage()
                            + "); the table was written by another program",
                    e);
        }
    }

    /**
     * Lists the prefix before it returns (the initial events), then polls it every poll interval.
     *
     * @throws StoreUnavailableException if the prefix could not be listed; nothing registered
     */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        checkOpen();
        return watches.watch(prefix, listener);
    }

    /** Polls every watch now, on the calling thread. */
    void pollNow() {
        watches.pollNow();
    }

    Duration pollInterval() {
        return pollInterval;
    }

    TableName table() {
        return table;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            watches.close();
        }
    }

    private Connection readConnection() throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            if (!connection.getAutoCommit()) {
                connection.setAutoCommit(true); // each statement its own transaction: a fresh snapshot
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new StoreClosedException(description);
        }
    }

    private static <T> T requireArgument(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    private StoreUnavailableException unavailable(String what, SQLException e) {
        return new StoreUnavailableException(description + ": " + what + ": " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return description;
    }
}
