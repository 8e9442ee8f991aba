package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.maintenance.MaintenanceContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The paged maintenance suite on PostgreSQL, one fresh table per test (one database per class). */
class PostgresMaintenanceTest extends MaintenanceContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
