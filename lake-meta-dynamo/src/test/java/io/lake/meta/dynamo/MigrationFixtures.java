package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Migration states the suites need, reached through the migration engine itself. */
final class MigrationFixtures {

    private MigrationFixtures() {}

    /** Backfills to the end and finalizes the migration of a legacy table to a v2 table (both exist; writers quiet). */
    static void finalizeNow(DynamoDbClient client, String legacy, String table) {
        DynamoMigration migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();
        while (!migration.backfillPage(1000).done()) {
            // next page
        }
        assertThat(migration.finalizeMigration(1000).outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }
}
