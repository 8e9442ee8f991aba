package io.lake.meta.dynamo;

import java.util.Optional;

/** The whole contract in mode DUAL after finalization, on a 2-shard v2 table. */
class DynamoDualV2AuthorityTwoShardsContractTest extends DynamoMetaStoreContractTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V2_AUTHORITY;
    }

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.of(2);
    }
}
