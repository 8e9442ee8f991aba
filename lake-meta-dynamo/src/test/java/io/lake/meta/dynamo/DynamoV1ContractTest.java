package io.lake.meta.dynamo;

/**
 * The whole contract in mode V1, on a legacy table: pages are filtered Scans over the whole table,
 * each evaluating at most its limit, often returning nothing while a token follows.
 */
class DynamoV1ContractTest extends DynamoMetaStoreContractTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.V1;
    }
}
