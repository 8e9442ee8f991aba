package io.lake.meta.cli.store;

import io.lake.meta.MetaStore;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The options that choose and open the store of an inspection command. */
public final class StoreOptions {

    @Option(
            names = "--store",
            required = true,
            paramLabel = "SCHEME:LOCATION",
            converter = StoreSpec.Converter.class,
            description = {
                "The store to open: rocks:DIR (an embedded RocksDB store in DIR), dynamo:TABLE (a DynamoDB"
                        + " table; credentials from the AWS SDK's default chain) or postgres:JDBC-URL[#TABLE] (a"
                        + " PostgreSQL table, lake_meta by default, such as postgres:jdbc:postgresql://db:5432/meta;"
                        + " credentials from PGUSER and PGPASSWORD, never from the URL).",
                "dynamo:TABLE: the AWS SDK retries throttling, server errors and refused connections, but"
                        + " each DynamoDB request gives up after 10 seconds, retries included; the command then"
                        + " exits 4."
            })
    StoreSpec store;

    @Option(
            names = "--endpoint",
            paramLabel = "URI",
            description = "For dynamo:TABLE only: the DynamoDB endpoint, such as http://127.0.0.1:8000 for dynamo-local"
                    + " (default: the region's AWS endpoint).")
    @Nullable
    String endpoint;

    @Option(
            names = "--region",
            paramLabel = "R",
            description =
                    "For dynamo:TABLE only: the AWS region, such as us-east-1 (default: the AWS SDK's region chain,"
                            + " such as AWS_REGION or the AWS profile's region).")
    @Nullable
    String region;

    /** Opens the chosen store; the caller closes it. */
    public MetaStore open(boolean createIfMissing) {
        return store.withConnection(endpoint, region).open(createIfMissing);
    }

    /** Opens the chosen store to read only, also while another process holds it (see {@link StoreSpec#openReadOnly()}). */
    public MetaStore openReadOnly() {
        return store.withConnection(endpoint, region).openReadOnly();
    }
}
