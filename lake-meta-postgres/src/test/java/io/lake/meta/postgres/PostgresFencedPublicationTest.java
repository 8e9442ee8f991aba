package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.ops.FencedPublicationContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fenced publication coverage of the recipes on PostgreSQL, one fresh table per test (one database per class). */
class PostgresFencedPublicationTest extends FencedPublicationContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore() {
        return DB.newStore();
    }
}
