package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Opens a fresh store of each tested mode on fresh tables, the way an operator would get there:
 * V1 on a legacy table; DUAL with v1 authority on a legacy and a v2 table; DUAL with v2 authority
 * after the migration of the (empty) legacy table was finalized; V2 on a v2 table.
 */
final class ModeFixture {

    /** A mode as the suites run it: DUAL twice, once per authority. */
    enum TestedMode {
        V1,
        DUAL_V1_AUTHORITY,
        DUAL_V2_AUTHORITY,
        V2;

        /** The layout descriptor the store's reads use, as its toString ends. */
        String readLayout(int shards) {
            return this == V1 || this == DUAL_V1_AUTHORITY ? V1Layout.DESCRIPTOR : V2Layout.descriptor(shards);
        }
    }

    /** A store and the tables it uses. */
    record Opened(MetaStore store, String legacyTable, String table) {

        Set<String> tables() {
            return legacyTable == null
                    ? Set.of(table)
                    : table == null ? Set.of(legacyTable) : Set.of(legacyTable, table);
        }

        /** Whether a request that names {@code tables} touches this store's tables. */
        boolean touches(Set<String> tables) {
            return tables.stream().anyMatch(tables()::contains);
        }
    }

    /** Watches poll this often in the suites, so that a change is heard within a test's patience. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(20);

    private ModeFixture() {}

    static Opened open(
            DynamoDbClient client, DynamoTestTarget target, TestedMode mode, Optional<Integer> shards, String hint) {
        String legacy = mode == TestedMode.V2 ? null : target.uniqueTableName(hint + "-v1");
        String table = mode == TestedMode.V1 ? null : target.uniqueTableName(hint + "-v2");
        if (mode == TestedMode.DUAL_V2_AUTHORITY) {
            builder(client, DynamoLayoutMode.DUAL, legacy, table, shards)
                    .build()
                    .close();
            MigrationFixtures.finalizeNow(client, legacy, table);
        }
        DynamoLayoutMode layoutMode = switch (mode) {
            case V1 -> DynamoLayoutMode.V1;
            case DUAL_V1_AUTHORITY, DUAL_V2_AUTHORITY -> DynamoLayoutMode.DUAL;
            case V2 -> DynamoLayoutMode.V2;
        };
        return new Opened(builder(client, layoutMode, legacy, table, shards).build(), legacy, table);
    }

    static DynamoMetaStore.Builder builder(
            DynamoDbClient client, DynamoLayoutMode mode, String legacy, String table, Optional<Integer> shards) {
        DynamoMetaStore.Builder builder = DynamoMetaStore.builder()
                .client(client)
                .mode(mode)
                .createTableIfMissing(true)
                .pollInterval(POLL_INTERVAL);
        if (legacy != null) {
            builder.legacyTableName(legacy);
        }
        if (table != null) {
            builder.tableName(table);
            shards.ifPresent(builder::shardCount);
        }
        return builder;
    }
}
