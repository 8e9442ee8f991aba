package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.counter.CounterContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The counter suite on PostgreSQL, one fresh table per test (one database per class). */
class PostgresCounterTest extends CounterContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
