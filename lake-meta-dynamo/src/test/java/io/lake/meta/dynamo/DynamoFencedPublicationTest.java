package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.ops.FencedPublicationContract;
import org.junit.jupiter.api.AfterAll;

/** The fenced publication coverage of the recipes on the DynamoDB store, one fresh table per test. */
class DynamoFencedPublicationTest extends FencedPublicationContract {

    @Override
    protected MetaStore openStore() {
        return DynamoRecipeStores.openFresh("recipes");
    }

    @AfterAll
    static void closeClient() {
        DynamoRecipeStores.closeClient();
    }
}
