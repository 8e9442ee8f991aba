package io.lake.meta.dynamo;

/** The lease and fencing suite in mode DUAL before finalization (guards checked on the legacy copy). */
class DynamoDualV1AuthorityLeaseFencingTest extends DynamoLeaseFencingTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
    }
}
