package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.registry.TableRegistryContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The table registry suite on PostgreSQL, one fresh table per test (one database per class). */
class PostgresTableRegistryTest extends TableRegistryContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
