package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.maintenance.FencedTableLocksContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fenced table locks suite on PostgreSQL, one fresh table per test (one database per class). */
class PostgresFencedTableLocksTest extends FencedTableLocksContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
