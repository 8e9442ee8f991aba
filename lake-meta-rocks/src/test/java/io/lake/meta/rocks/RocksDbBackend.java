package io.lake.meta.rocks;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.StoreContext;
import java.io.IOException;

/**
 * The RocksDB store as the testkit's suites see it: each store in a new directory, calling the
 * suite's race hooks inside its commits. Every capability: conflicts carry the current value, the
 * commit pauses at the hook, pages equal the model's, families are listed by skip scan.
 */
final class RocksDbBackend implements BackendFactory {

    @Override
    public MetaStore open(StoreContext context) throws IOException {
        return RocksDbMetaStore.builder()
                .directory(context.newDirectory())
                .raceHooks(context.raceHooks())
                .build();
    }

    @Override
    public String toString() {
        return "RocksDB";
    }
}
