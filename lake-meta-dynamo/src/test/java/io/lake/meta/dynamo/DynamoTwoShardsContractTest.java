package io.lake.meta.dynamo;

import java.util.Optional;

/** The whole contract again on 2 shards: every family's keys spread over both, few pages empty. */
class DynamoTwoShardsContractTest extends DynamoMetaStoreContractTest {

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.of(2);
    }
}
