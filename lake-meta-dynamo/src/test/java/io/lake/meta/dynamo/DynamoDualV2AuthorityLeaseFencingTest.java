package io.lake.meta.dynamo;

import java.util.Optional;

/** The lease and fencing suite in mode DUAL after finalization (guards checked on the v2 copy), on 1 shard. */
class DynamoDualV2AuthorityLeaseFencingTest extends DynamoLeaseFencingTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V2_AUTHORITY;
    }

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.of(1);
    }
}
