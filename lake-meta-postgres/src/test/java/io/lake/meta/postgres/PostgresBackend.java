package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.StoreContext;
import io.lake.meta.testkit.postgres.PostgresTestTarget;

/**
 * The PostgreSQL store as the testkit's suites see it: a fresh database on the
 * {@linkplain PostgresTestTarget#shared() shared server} per test class (dropped when the class
 * ends), a fresh table per store. The race tests run: {@link io.lake.meta.spi.RaceHooks#COMMIT_CHECKED}
 * is reached inside the commit while its keys' locks are held, and a competing writer in this JVM
 * waits on the store's striped key lock. Watches poll every 20 ms.
 */
final class PostgresBackend implements BackendFactory {

    private PostgresTestTarget.TestDatabase database;

    @Override
    public synchronized MetaStore open(StoreContext context) {
        if (database == null) {
            database = PostgresTestTarget.shared().newDatabase("suite");
        }
        return PostgresMetaStore.builder()
                .dataSource(database.pool())
                .table(database.newTableName())
                .createTableIfMissing(true)
                .pollInterval(ClassDatabase.TEST_POLL_INTERVAL)
                .raceHooks(context.raceHooks())
                .build();
    }

    @Override
    public synchronized void close() {
        if (database != null) {
            database.close();
            database = null;
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL";
    }
}
