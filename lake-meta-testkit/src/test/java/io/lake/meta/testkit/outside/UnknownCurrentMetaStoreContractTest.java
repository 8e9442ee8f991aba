package io.lake.meta.testkit.outside;

import io.lake.meta.MetaStore;
import io.lake.meta.WriteResult;
import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.Capabilities;
import io.lake.meta.testkit.Capability;
import io.lake.meta.testkit.MetaStoreSuite;
import io.lake.meta.testkit.StoreContext;

/**
 * The whole contract on a store that never knows the current value of a key it conflicted on
 * ({@link WriteResult#conflictWithUnknownCurrent()}, which the API allows), as a third-party
 * backend would run it: it declares the missing capability, and the suite then expects a
 * conflict without a current value, instead of failing on every conflict test.
 */
@Backend(UnknownCurrentMetaStoreContractTest.Forgetting.class)
class UnknownCurrentMetaStoreContractTest extends MetaStoreSuite {

    static final class Forgetting implements BackendFactory {
        @Override
        public MetaStore open(StoreContext context) {
            return UnknownCurrentStores.forgetting(context.raceHooks());
        }

        @Override
        public Capabilities capabilities() {
            return Capabilities.all()
                    .without(
                            Capability.CONFLICT_REPORTS_CURRENT_VALUE,
                            "every conflict forgets the current value, as the API allows");
        }
    }
}
