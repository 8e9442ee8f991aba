package io.lake.meta.testkit.lock;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The fenced-lock suite on the in-memory model store. */
class InMemoryFencedLockTest extends FencedLockContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
