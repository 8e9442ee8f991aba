package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.lease.LeaseFencingContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lease and fencing suite on PostgreSQL, one fresh table per test (one database per class). */
class PostgresLeaseFencingTest extends LeaseFencingContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
