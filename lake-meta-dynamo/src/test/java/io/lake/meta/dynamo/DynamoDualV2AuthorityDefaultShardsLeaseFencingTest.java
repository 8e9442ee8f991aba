package io.lake.meta.dynamo;

/** The lease and fencing suite in mode DUAL after finalization, at the builder's default shard count (16). */
class DynamoDualV2AuthorityDefaultShardsLeaseFencingTest extends DynamoLeaseFencingTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V2_AUTHORITY;
    }
}
