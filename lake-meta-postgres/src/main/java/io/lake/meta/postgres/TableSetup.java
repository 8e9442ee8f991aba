package io.lake.meta.postgres;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Finds the store's table and checks it is a lake-meta table of a format this build reads, creating
 * it first when asked. The table's comment carries the format ({@value #COMMENT_PREFIX}N), so a
 * table of another program or a newer format is refused before anything is written.
 */
final class TableSetup {

    /** The format of the table this build writes; a table of a higher format is refused. */
    static final int FORMAT = 1;

    static final String COMMENT_PREFIX = "lake-meta store, format ";

    private static final Pattern COMMENT = Pattern.compile(Pattern.quote(COMMENT_PREFIX) + "([0-9]{1,9})");

    /** The columns and types of format 1, in order. */
    private static final List<String> COLUMNS = List.of("k bytea not null", "v bytea not null");

    private TableSetup() {}

    /**
     * Checks (and creates, if asked) the table and returns it as the server resolved it (schema and
     * name from the catalog): the store's statements and its keys' advisory lock ids use that, so
     * two stores given {@code lake_meta} and {@code public.lake_meta} lock the same keys alike.
     */
    static TableName prepare(DataSource dataSource, TableName table, boolean createIfMissing) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            if (!exists(connection, table)) {
                if (!createIfMissing) {
                    throw new InvalidArgumentException("table " + table + " does not exist: create it with"
                            + " createTableIfMissing(true) or with the statements in docs/guides/postgres.md");
                }
                create(connection, table);
            }
            verify(connection, table);
            return resolve(connection, table);
        } catch (SQLException e) {
            throw new StoreUnavailableException("could not check PostgreSQL table " + table + ": " + e.getMessage(), e);
        }
    }

    private static boolean exists(Connection connection, TableName table) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            query.setString(1, table.sql());
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getBoolean(1);
            }
        }
    }

    /**
     * Creates the table and its comment in one transaction, under an advisory lock so two stores
     * opening a new table at once do not both try (CREATE TABLE IF NOT EXISTS alone can still fail
     * on the catalog's unique index when two sessions race).
     */
    private static void create(Connection connection, TableName table) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement();
                PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            lock.setLong(1, KeyLocks.lockId(table, "table setup"));
            lock.execute();
            statement.execute("CREATE TABLE IF NOT EXISTS " + table.sql() + " (k bytea PRIMARY KEY, v bytea NOT NULL)");
            if (commentOf(connection, table) == null) {
                statement.execute("COMMENT ON TABLE " + table.sql() + " IS '" + COMMENT_PREFIX + FORMAT + "'");
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            if (e instanceof SQLException sql && "3F000".equals(sql.getSQLState())) { // invalid_schema_name
                throw new InvalidArgumentException("cannot create table " + table + ": " + sql.getMessage()
                        + "; create the schema first (CREATE SCHEMA) or name a table in an existing one. Nothing"
                        + " was written");
            }
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private static void verify(Connection connection, TableName table) throws SQLException {
        String comment = commentOf(connection, table);
        List<String> columns = columnsOf(connection, table);
        Matcher format = comment == null ? null : COMMENT.matcher(comment);
        if (format == null || !format.matches()) {
            throw new InvalidArgumentException("table " + table + " is not a lake-meta table: its comment is "
                    + (comment == null ? "missing" : "'" + comment + "'") + " (a lake-meta table's reads '"
                    + COMMENT_PREFIX + FORMAT + "') and its columns are " + columns + "; nothing was written");
        }
        int found = Integer.parseInt(format.group(1));
        if (found < 1) {
            throw new InvalidArgumentException("table " + table + " is not a lake-meta table: its comment names format "
                    + found + ", which no lake-meta build ever wrote (this build reads format " + FORMAT
                    + "); nothing was written");
        }
        if (found > FORMAT) {
            throw new InvalidArgumentException(
                    "table " + table + " is of lake-meta format " + found + ", newer than format " + FORMAT
                            + " that this build reads; upgrade lake-meta. Nothing was written");
        }
        if (!columns.equals(COLUMNS)) {
            throw new InvalidArgumentException("table " + table + " says it is lake-meta format " + found
                    + " but its columns are " + columns + ", not " + COLUMNS + "; nothing was written");
        }
        if (!hasKeyIndex(connection, table)) {
            throw new InvalidArgumentException("table " + table + " says it is lake-meta format " + found
                    + " but has no primary key (nor an immediate unique index) on k alone: every write needs it"
                    + " (ON CONFLICT (k)) and without it one key could have two rows; add it with ALTER TABLE "
                    + table + " ADD PRIMARY KEY (k). Nothing was written");
        }
    }

    /** Whether a unique, immediate, whole-table index on exactly column k exists: what ON CONFLICT (k) needs. */
    private static boolean hasKeyIndex(Connection connection, TableName table) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT EXISTS (SELECT 1 FROM pg_index i"
                + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attname = 'k'"
                + " WHERE i.indrelid = to_regclass(?) AND i.indisunique AND i.indimmediate AND i.indisvalid"
                + " AND i.indpred IS NULL AND i.indexprs IS NULL AND i.indnatts = 1 AND i.indkey[0] = a.attnum)")) {
            query.setString(1, table.sql());
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getBoolean(1);
            }
        }
    }

    private static TableName resolve(Connection connection, TableName table) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT n.nspname, c.relname FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass(?)")) {
            query.setString(1, table.sql());
            try (ResultSet rows = query.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("table " + table + " disappeared while it was being checked");
                }
                return TableName.resolved(rows.getString(1), rows.getString(2));
            }
        }
    }

    private static String commentOf(Connection connection, TableName table) throws SQLException {
        try (PreparedStatement query =
                connection.prepareStatement("SELECT obj_description(to_regclass(?), 'pg_class')")) {
            query.setString(1, table.sql());
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }

    private static List<String> columnsOf(Connection connection, TableName table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT attname, format_type(atttypid, atttypmod),"
                + " attnotnull FROM pg_attribute WHERE attrelid = to_regclass(?) AND attnum > 0 AND NOT attisdropped"
                + " ORDER BY attnum")) {
            query.setString(1, table.sql());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1) + " " + rows.getString(2) + (rows.getBoolean(3) ? " not null" : ""));
                }
            }
        }
        return columns;
    }
}
