package io.lake.meta.dynamo;

/** The lease and fencing suite in mode V1, on a legacy table. */
class DynamoV1LeaseFencingTest extends DynamoLeaseFencingTest {

    @Override
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.V1;
    }
}
