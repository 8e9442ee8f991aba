package io.lake.meta.cli.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.cli.StoreOpenException;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.store.DynamoStoreSpec;
import io.lake.meta.cli.store.RequestBudget;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.DynamoStoreException;
import picocli.CommandLine.Option;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The two tables and the connection every {@code dynamo-migrate} action takes, each also from an
 * environment variable {@code LAKE_META_MIGRATE_<OPTION>} (for a Kubernetes Job).
 */
final class MigrationConnection {

    @Option(
            names = "--legacy-table",
            paramLabel = "T1",
            defaultValue = "${env:LAKE_META_MIGRATE_LEGACY_TABLE}",
            description = "The legacy v1 table to migrate from; required (env LAKE_META_MIGRATE_LEGACY_TABLE).")
    String legacyTable;

    @Option(
            names = "--table",
            paramLabel = "T2",
            defaultValue = "${env:LAKE_META_MIGRATE_TABLE}",
            description =
                    "The v2 table to migrate to; required; the backfill and the finalize create it (on demand) when"
                            + " missing (env LAKE_META_MIGRATE_TABLE).")
    String table;

    @Option(
            names = "--endpoint",
            paramLabel = "URL",
            defaultValue = "${env:LAKE_META_MIGRATE_ENDPOINT}",
            description = "The DynamoDB endpoint, such as http://127.0.0.1:8000 (default: the region's AWS endpoint;"
                    + " env LAKE_META_MIGRATE_ENDPOINT).")
    String endpoint;

    @Option(
            names = "--region",
            paramLabel = "R",
            defaultValue = "${env:LAKE_META_MIGRATE_REGION}",
            description = "The AWS region (default: the AWS SDK's region chain, such as AWS_REGION; env"
                    + " LAKE_META_MIGRATE_REGION).")
    String region;

    @Option(
            names = "--shards",
            paramLabel = "N",
            defaultValue = "${env:LAKE_META_MIGRATE_SHARDS}",
            description = "The v2 table's shard count, 1..1024: used when the table is created, checked against an"
                    + " existing one (default: adopt the table's, 16 for a new one; env LAKE_META_MIGRATE_SHARDS).")
    Integer shards;

    /** Every rule that needs no network: the tables, the shard count, the endpoint's and region's syntax. */
    DynamoStoreSpec validate() {
        require(legacyTable, "--legacy-table", "LAKE_META_MIGRATE_LEGACY_TABLE");
        require(table, "--table", "LAKE_META_MIGRATE_TABLE");
        try {
            DynamoMetaStore.builder().legacyTableName(legacyTable).tableName(table); // the builder's own rules
            if (shards != null) {
                DynamoMetaStore.builder().shardCount(shards);
            }
        } catch (InvalidArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (legacyTable.equals(table)) {
            throw new UsageException(
                    "--legacy-table and --table are both '" + table + "': a migration needs two tables");
        }
        return (DynamoStoreSpec) new DynamoStoreSpec(table, null, null).withConnection(endpoint, region);
    }

    private static void require(String value, String option, String env) {
        if (value == null || value.isEmpty()) {
            throw new UsageException(option + " is required (or set " + env + ")");
        }
    }

    /** The client for {@code connection} (from {@link #validate()}) in {@code region}; the caller closes it. */
    static DynamoDbClient client(DynamoStoreSpec connection, Region region, AwsCredentialsProvider credentials) {
        DynamoDbClientBuilder builder = DynamoDbClient.builder()
                .region(region)
                .credentialsProvider(credentials)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(RequestBudget::applyTo);
        if (connection.endpoint() != null) {
            builder.endpointOverride(connection.endpoint());
        }
        return builder.build();
    }

    /** The migration of the two tables; {@code createTableIfMissing} for the actions that copy (backfill, finalize). */
    DynamoMigration open(DynamoDbClient client, boolean createTableIfMissing) {
        try {
            DynamoMigration.Builder builder = DynamoMigration.builder()
                    .client(client)
                    .legacyTableName(legacyTable)
                    .tableName(table)
                    .createTableIfMissing(createTableIfMissing);
            if (shards != null) {
                builder.shardCount(shards);
            }
            return builder.build();
        } catch (InvalidArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (DynamoStoreException e) {
            if (e.getCause() instanceof SdkException) {
                throw new StoreOpenException("cannot open the migration's tables: " + e.getMessage(), e);
            }
            throw new UsageException(e.getMessage()); // a missing table, or one of another layout
        } catch (StoreUnavailableException e) {
            throw new StoreOpenException("cannot open the migration's tables: " + e.getMessage(), e);
        }
    }
}
