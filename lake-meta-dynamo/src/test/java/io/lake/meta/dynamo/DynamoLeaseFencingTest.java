package io.lake.meta.dynamo;

import static io.lake.meta.dynamo.ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
import static io.lake.meta.dynamo.ModeFixture.TestedMode.DUAL_V2_AUTHORITY;
import static io.lake.meta.dynamo.ModeFixture.TestedMode.V1;
import static io.lake.meta.dynamo.ModeFixture.TestedMode.V2;

import io.lake.meta.testkit.lease.LeaseFencingSuite;
import java.util.stream.Stream;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lease and fencing suite on DynamoDB, one fresh table (or pair of tables) per test: once per
 * layout below, each run named by its layout.
 */
@ParameterizedClass(name = "[{0}]")
@MethodSource("layouts")
class DynamoLeaseFencingTest extends LeaseFencingSuite {

    @Parameter
    DynamoBackend backend;

    static Stream<DynamoBackend> layouts() {
        return Stream.of(
                DynamoBackend.defaultShards(V2),
                DynamoBackend.shards(V2, 1),
                DynamoBackend.defaultShards(V1),
                // DUAL before finalization: guards checked on the legacy copy
                DynamoBackend.defaultShards(DUAL_V1_AUTHORITY),
                DynamoBackend.shards(DUAL_V1_AUTHORITY, 2),
                // DUAL after finalization: guards checked on the v2 copy
                DynamoBackend.shards(DUAL_V2_AUTHORITY, 1),
                DynamoBackend.defaultShards(DUAL_V2_AUTHORITY));
    }
}
