package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.lock.FencedLockContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fenced-lock suite on PostgreSQL, one fresh table per test (one database per class). */
class PostgresFencedLockTest extends FencedLockContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
