package io.lake.meta.testkit.ops;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The fenced publication coverage of the recipes on the in-memory model store. */
class InMemoryFencedPublicationTest extends FencedPublicationContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
