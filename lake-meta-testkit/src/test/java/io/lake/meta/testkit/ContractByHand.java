package io.lake.meta.testkit;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import java.io.IOException;
import java.util.function.Function;

/**
 * The contract suite run by hand, for the tests of the suite itself: set up on a backend the test
 * builds, as JUnit would set it up, its tests then called as methods.
 */
final class ContractByHand extends MetaStoreSuite implements AutoCloseable {

    private ContractByHand() {}

    /** The suite, set up for one test on a backend whose stores {@code stores} opens, with every capability. */
    static ContractByHand on(Function<RaceHooks, MetaStore> stores) throws Exception {
        return on(backend(stores, Capabilities.all(), SuiteSettings.defaults()));
    }

    /** The suite, set up for one test on {@code backend}. */
    static ContractByHand on(BackendFactory backend) throws Exception {
        ContractByHand contract = new ContractByHand();
        contract.useBackend(backend);
        contract.openStoreUnderTest();
        return contract;
    }

    /** A backend whose stores {@code stores} opens from their race hooks. */
    static BackendFactory backend(
            Function<RaceHooks, MetaStore> stores, Capabilities capabilities, SuiteSettings settings) {
        return new BackendFactory() {
            @Override
            public MetaStore open(StoreContext context) {
                return stores.apply(context.raceHooks());
            }

            @Override
            public Capabilities capabilities() {
                return capabilities;
            }

            @Override
            public SuiteSettings settings() {
                return settings;
            }
        };
    }

    /** Ends the test as JUnit would: blocked listeners released, the store closed, its directories deleted. */
    @Override
    public void close() throws IOException {
        try {
            releaseBlockedListeners();
            closeStoreUnderTest();
        } finally {
            deleteStoreDirectories();
        }
    }
}
