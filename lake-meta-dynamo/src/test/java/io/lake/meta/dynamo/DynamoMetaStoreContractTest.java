package io.lake.meta.dynamo;

import static io.lake.meta.dynamo.ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
import static io.lake.meta.dynamo.ModeFixture.TestedMode.DUAL_V2_AUTHORITY;
import static io.lake.meta.dynamo.ModeFixture.TestedMode.V1;
import static io.lake.meta.dynamo.ModeFixture.TestedMode.V2;

import io.lake.meta.testkit.MetaStoreSuite;
import java.util.stream.Stream;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole MetaStore contract, unchanged, on DynamoDB: once per layout below, each run named by
 * its layout ({@code DynamoMetaStoreContractTest > [V2 on 1 shard] > conditional writes > ...}).
 */
@ParameterizedClass(name = "[{0}]")
@MethodSource("layouts")
class DynamoMetaStoreContractTest extends MetaStoreSuite {

    @Parameter
    DynamoBackend backend;

    static Stream<DynamoBackend> layouts() {
        return Stream.of(
                // most of a family's shards are empty, so pages after a token often are too
                DynamoBackend.defaultShards(V2),
                // one query per page, keys in UTF-8 byte order
                DynamoBackend.shards(V2, 1),
                // every family's keys spread over both shards, few pages empty
                DynamoBackend.shards(V2, 2),
                // a legacy table: pages are filtered Scans over the whole table, often empty while a token follows
                DynamoBackend.defaultShards(V1),
                // DUAL before finalization: reads and conditions on the legacy table, every write to both
                DynamoBackend.defaultShards(DUAL_V1_AUTHORITY),
                DynamoBackend.shards(DUAL_V1_AUTHORITY, 1),
                // DUAL after finalization: reads and conditions on the v2 table, every write to both
                DynamoBackend.defaultShards(DUAL_V2_AUTHORITY),
                DynamoBackend.shards(DUAL_V2_AUTHORITY, 2));
    }
}
