package io.lake.meta.dynamo;

import java.util.Optional;

/** The whole contract in mode DUAL before finalization, with a 1-shard v2 table. */
class DynamoDualV1AuthorityOneShardContractTest extends DynamoMetaStoreContractTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
    }

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.of(1);
    }
}
