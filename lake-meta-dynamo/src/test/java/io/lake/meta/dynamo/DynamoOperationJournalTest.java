package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.ops.OperationJournalContract;
import org.junit.jupiter.api.AfterAll;

/** The operation journal suite on the DynamoDB store, one fresh table per test. */
class DynamoOperationJournalTest extends OperationJournalContract {

    @Override
    protected MetaStore openStore() {
        return DynamoRecipeStores.openFresh("recipes");
    }

    @AfterAll
    static void closeClient() {
        DynamoRecipeStores.closeClient();
    }
}
