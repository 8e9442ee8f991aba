package io.lake.meta.postgres;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.MetaStoreContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole MetaStore contract, unchanged, on a fresh table per store (one database per class).
 * The race tests run: {@link RaceHooks#COMMIT_CHECKED} is reached inside the commit while its
 * keys' locks are held, and a competing writer in this JVM waits on the store's striped key lock.
 * Watches poll every 20 ms.
 */
class PostgresMetaStoreContractTest extends MetaStoreContract {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        return DB.newStore(hooks);
    }
}
