package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh database for one test class on the {@linkplain PostgresTestTarget#shared() shared
 * server}, dropped when the class ends. Register it as a static field:
 * {@code @RegisterExtension static final ClassDatabase DB = new ClassDatabase();}.
 */
final class ClassDatabase implements BeforeAllCallback, AfterAllCallback {

    /** Watches poll this often in the tests, so a change arrives in milliseconds. */
    static final Duration TEST_POLL_INTERVAL = Duration.ofMillis(20);

    private PostgresTestTarget.TestDatabase database;

    @Override
    public void beforeAll(ExtensionContext context) {
        database = PostgresTestTarget.shared()
                .newDatabase(context.getRequiredTestClass().getSimpleName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (database != null) {
            database.close();
            database = null;
        }
    }

    PostgresTestTarget.TestDatabase database() {
        if (database == null) {
            throw new IllegalStateException("the class database is opened before the first test of the class");
        }
        return database;
    }

    /** A new, empty store on a new table of the class's database, sharing its pool; watches poll every 20 ms. */
    MetaStore newStore(RaceHooks hooks) {
        return PostgresMetaStore.builder()
                .dataSource(database().pool())
                .table(database().newTableName())
                .createTableIfMissing(true)
                .pollInterval(TEST_POLL_INTERVAL)
                .raceHooks(hooks)
                .build();
    }

    MetaStore newStore() {
        return newStore(RaceHooks.NONE);
    }
}
