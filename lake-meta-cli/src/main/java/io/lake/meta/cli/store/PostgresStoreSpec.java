package io.lake.meta.cli.store;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.cli.StoreOpenException;
import io.lake.meta.cli.UsageException;
import io.lake.meta.postgres.PostgresMetaStore;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code postgres:JDBC-URL[#TABLE]}: a lake-meta table (default {@code lake_meta}) in the PostgreSQL
 * database the JDBC URL names, such as {@code postgres:jdbc:postgresql://db:5432/meta#lake_meta}.
 * Credentials come from the environment, {@code PGUSER} and {@code PGPASSWORD} (libpq's names),
 * never from the spec: a URL carrying a password or user is refused, since specs are printed.
 *
 * @param url the JDBC URL, without credentials
 * @param table the table, {@code lake_meta} unless {@code #TABLE} names another
 */
public record PostgresStoreSpec(String url, String table) implements StoreSpec {

    public static final String USER_VARIABLE = "PGUSER";
    public static final String PASSWORD_VARIABLE = "PGPASSWORD";

    public static PostgresStoreSpec parse(String location) {
        int hash = location.lastIndexOf('#');
        String url = hash < 0 ? location : location.substring(0, hash);
        String table = hash < 0 ? PostgresMetaStore.DEFAULT_TABLE : location.substring(hash + 1);
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new TypeConversionException("'" + url + "' is not a PostgreSQL JDBC URL: write"
                    + " postgres:jdbc:postgresql://HOST:PORT/DATABASE[#TABLE]");
        }
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.contains("password=")
                || lower.contains("user=")
                || url.substring("jdbc:postgresql://".length()).contains("@")) {
            throw new TypeConversionException("the PostgreSQL URL must not carry credentials (they would be printed):"
                    + " set " + USER_VARIABLE + " and " + PASSWORD_VARIABLE + " in the environment instead");
        }
        try {
            PostgresMetaStore.builder().table(table); // the builder's own rule, checked before any connection
        } catch (InvalidArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
        return new PostgresStoreSpec(url, table);
    }

    @Override
    public String text() {
        return "postgres:" + url + (PostgresMetaStore.DEFAULT_TABLE.equals(table) ? "" : "#" + table);
    }

    /**
     * {@link #text()}. picocli turns the parsed option into a string on every run: a record's
     * generated {@code toString} would cost each start a method-handle bootstrap.
     */
    @Override
    public String toString() {
        return text();
    }

    /** Where {@link #open} reads {@code PGUSER} and {@code PGPASSWORD}: the process environment; tests set their own. */
    static volatile Function<String, String> environment = System::getenv;

    /** Opens the table; the password is never printed. */
    @Override
    public MetaStore open(boolean createIfMissing) {
        Function<String, String> env = environment;
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        try {
            dataSource.setUrl(url);
        } catch (IllegalArgumentException e) {
            throw new UsageException("'" + url + "' is not a usable PostgreSQL JDBC URL: " + e.getMessage());
        }
        String user = env.apply(USER_VARIABLE);
        String password = env.apply(PASSWORD_VARIABLE);
        if (user != null && !user.isEmpty()) {
            dataSource.setUser(user);
        }
        if (password != null && !password.isEmpty()) {
            dataSource.setPassword(password);
        }
        dataSource.setConnectTimeout(10);
        try {
            return PostgresMetaStore.builder()
                    .dataSource(dataSource)
                    .table(table)
                    .createTableIfMissing(createIfMissing)
                    .build();
        } catch (InvalidArgumentException e) {
            throw new UsageException("cannot open PostgreSQL table " + table + " at " + url + ": " + e.getMessage()
                    + (createIfMissing ? "" : " (put --create-store creates it)"));
        } catch (StoreUnavailableException e) {
            throw new StoreOpenException(
                    "cannot open PostgreSQL table " + table + " at " + url + ": " + redact(e.getMessage(), password),
                    e);
        }
    }

    /** The message without the password, should a driver ever echo it. */
    private static @Nullable String redact(@Nullable String message, @Nullable String password) {
        return password == null || password.isEmpty() || message == null ? message : message.replace(password, "****");
    }
}
