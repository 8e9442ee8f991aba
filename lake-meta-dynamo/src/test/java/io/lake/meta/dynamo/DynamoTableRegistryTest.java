package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.registry.TableRegistryContract;
import org.junit.jupiter.api.AfterAll;

/** The table registry suite on the DynamoDB store, one fresh table per test. */
class DynamoTableRegistryTest extends TableRegistryContract {

    @Override
    protected MetaStore openStore() {
        return DynamoRecipeStores.openFresh("recipes");
    }

    @AfterAll
    static void closeClient() {
        DynamoRecipeStores.closeClient();
    }
}
