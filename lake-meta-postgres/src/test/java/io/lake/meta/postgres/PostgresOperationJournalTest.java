package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.ops.OperationJournalContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The operation journal suite on PostgreSQL, one fresh table per test (one database per class). */
class PostgresOperationJournalTest extends OperationJournalContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
