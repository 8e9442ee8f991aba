package io.lake.meta.dynamo;

import java.util.Optional;

/** The whole contract in mode DUAL before finalization: reads and conditions on the legacy table, every write to both. */
class DynamoDualV1AuthorityContractTest extends DynamoMetaStoreContractTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
    }

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.empty();
    }
}
