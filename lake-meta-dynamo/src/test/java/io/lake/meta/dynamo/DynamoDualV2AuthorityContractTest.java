package io.lake.meta.dynamo;

import java.util.Optional;

/** The whole contract in mode DUAL after finalization: reads and conditions on the v2 table (16 shards), every write to both. */
class DynamoDualV2AuthorityContractTest extends DynamoMetaStoreContractTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V2_AUTHORITY;
    }

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.empty();
    }
}
