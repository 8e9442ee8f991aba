package io.lake.meta.dynamo;

import java.util.Optional;

/** The lease and fencing suite in mode DUAL before finalization, with a v2 table of 2 shards. */
class DynamoDualV1AuthorityTwoShardsLeaseFencingTest extends DynamoLeaseFencingTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
    }

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.of(2);
    }
}
