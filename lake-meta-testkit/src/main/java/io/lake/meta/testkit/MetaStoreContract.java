package io.lake.meta.testkit;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;

/**
 * The MetaStore contract suite, written once. A backend runs it by extending this class with a
 * small factory:
 *
 * <pre>{@code
 * class MyStoreContractTest extends MetaStoreContract {
 *     protected MetaStore openStore(RaceHooks hooks) {
 *         return MyStore.builder().raceHooks(hooks).build();
 *     }
 * }
 * }</pre>
 */
public abstract class MetaStoreContract {

    /**
     * Opens a fresh, empty store. Called for each test; the suite closes the store afterwards.
     *
     * @param hooks the hooks the store must call at {@link RaceHooks#COMMIT_CHECKED} inside every commit
     */
    protected abstract MetaStore openStore(RaceHooks hooks) throws Exception;
}
