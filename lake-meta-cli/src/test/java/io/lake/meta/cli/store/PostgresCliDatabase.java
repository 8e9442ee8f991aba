package io.lake.meta.cli.store;

import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.util.Map;

/**
 * A fresh database on the tests' PostgreSQL server for one CLI test class: its JDBC URL (without
 * credentials, as the CLI requires) and the credentials the CLI reads from its environment, which
 * {@link #close()} gives back to the real environment.
 */
public final class PostgresCliDatabase implements AutoCloseable {
    public final PostgresTestTarget.TestDatabase database;
    public final String url;

    private PostgresCliDatabase(PostgresTestTarget.TestDatabase database) {
        this.database = database;
        this.url = "jdbc:postgresql://" + database.target().host() + ":"
                + database.target().port() + "/" + database.name();
    }

    /** Opens database {@code name} and has the CLI read {@code environment} instead of the process's. */
    public static PostgresCliDatabase open(String name, Map<String, String> environment) {
        PostgresCliDatabase opened =
                new PostgresCliDatabase(PostgresTestTarget.shared().newDatabase(name));
        PostgresStoreSpec.environment = environment::get;
        return opened;
    }

    @Override
    public void close() {
        PostgresStoreSpec.environment = System::getenv;
        database.close();
    }
}
