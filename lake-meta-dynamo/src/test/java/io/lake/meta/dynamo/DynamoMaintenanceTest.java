package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.maintenance.MaintenanceContract;
import org.junit.jupiter.api.AfterAll;

/** The paged maintenance suite on the DynamoDB store, one fresh table per test. */
class DynamoMaintenanceTest extends MaintenanceContract {

    @Override
    protected MetaStore openStore() {
        return DynamoRecipeStores.openFresh("recipes");
    }

    @AfterAll
    static void closeClient() {
        DynamoRecipeStores.closeClient();
    }
}
