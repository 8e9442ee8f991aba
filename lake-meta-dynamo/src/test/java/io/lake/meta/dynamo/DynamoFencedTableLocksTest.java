package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.maintenance.FencedTableLocksContract;
import org.junit.jupiter.api.AfterAll;

/** The fenced table locks suite on the DynamoDB store, one fresh table per test. */
class DynamoFencedTableLocksTest extends FencedTableLocksContract {

    @Override
    protected MetaStore openStore() {
        return DynamoRecipeStores.openFresh("table-locks");
    }

    @AfterAll
    static void closeClient() {
        DynamoRecipeStores.closeClient();
    }
}
