package io.lake.meta.testkit.outside;

import io.lake.meta.MetaStore;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import java.util.EnumSet;
import java.util.Set;
import io.lake.meta.testkit.ContractCapability;
import io.lake.meta.testkit.MetaStoreContract;

/**
 * The whole contract on a store that never knows the current value of a key it conflicted on
 * ({@link WriteResult#conflictWithUnknownCurrent()}, which the API allows), as a third-party
 * backend would run it: it declares the missing capability, and the suite then expects a
 * conflict without a current value, instead of failing on every conflict test.
 */
class UnknownCurrentMetaStoreContractTest extends MetaStoreContract {

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        return UnknownCurrentStores.forgetting(hooks);
    }

    @Override
    protected Set<ContractCapability> capabilities() {
        return EnumSet.of(ContractCapability.RACE_HOOKS);
    }
}
