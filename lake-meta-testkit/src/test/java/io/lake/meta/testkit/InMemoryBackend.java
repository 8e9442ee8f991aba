package io.lake.meta.testkit;

import io.lake.meta.MetaStore;

/** The model as a backend: every suite of the testkit runs on it. */
public final class InMemoryBackend implements BackendFactory {

    @Override
    public MetaStore open(StoreContext context) {
        return InMemoryMetaStore.withHooks(context.raceHooks());
    }

    @Override
    public String toString() {
        return "InMemoryBackend";
    }
}
