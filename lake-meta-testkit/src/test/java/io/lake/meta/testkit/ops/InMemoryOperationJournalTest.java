package io.lake.meta.testkit.ops;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The operation journal suite on the in-memory model store. */
class InMemoryOperationJournalTest extends OperationJournalContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
