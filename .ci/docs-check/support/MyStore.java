package docscheck.support;

import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.InMemoryMetaStore;

/**
 * The "backend of your own" that the testing guides run the contract suite on: here the
 * testkit's in-memory model store, which calls the race hooks inside its commits, so the suite
 * a snippet declares runs for real.
 */
public final class MyStore extends ForwardingMetaStore {
    public MyStore(RaceHooks hooks) {
        super(InMemoryMetaStore.withHooks(hooks));
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private RaceHooks hooks = RaceHooks.NONE;

        public Builder raceHooks(RaceHooks hooks) {
            this.hooks = hooks;
            return this;
        }

        public MyStore build() {
            return new MyStore(hooks);
        }
    }
}
