package io.lake.meta.dynamo;

import java.util.Optional;

/** The whole contract again on 1 shard: one query per page, keys in UTF-8 byte order. */
class DynamoOneShardContractTest extends DynamoMetaStoreContractTest {

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.of(1);
    }
}
