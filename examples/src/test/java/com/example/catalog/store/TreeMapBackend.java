package com.example.catalog.store;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.Capabilities;
import io.lake.meta.testkit.Capability;
import io.lake.meta.testkit.StoreContext;

/**
 * The example's backend as the testkit's suites see it: how to open a fresh store, and what it
 * cannot do, with the reason. The one class a third-party backend writes to run every suite.
 */
final class TreeMapBackend implements BackendFactory {

    @Override
    public MetaStore open(StoreContext context) {
        return new TreeMapMetaStore(context.raceHooks()); // a new, empty store; calls the hooks inside its commits
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.all()
                .without(
                        Capability.KEY_FAMILIES,
                        "TreeMapMetaStore lists keys by prefix only: it does not implement KeyFamilies");
    }
}
