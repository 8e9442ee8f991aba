package io.lake.meta.testkit.outside;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.lease.LeaseFencingSuite;

/**
 * The lease suite on a store that never knows the current value of a key it conflicted on, declared
 * so: the suite expects what the capability says, as the contract suite does
 * ({@link UnknownCurrentMetaStoreContractTest}).
 */
@Backend(UnknownCurrentMetaStoreContractTest.Forgetting.class)
class UnknownCurrentLeaseFencingTest extends LeaseFencingSuite {}
