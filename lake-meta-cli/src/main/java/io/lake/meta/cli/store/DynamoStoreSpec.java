package io.lake.meta.cli.store;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.cli.StoreOpenException;
import io.lake.meta.cli.UsageException;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.dynamo.DynamoStoreException;
import io.lake.meta.spi.ForwardingMetaStore;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.TypeConversionException;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * {@code dynamo:TABLE}: a lake-meta table in DynamoDB, reached at {@code --endpoint} (or the
 * region's AWS endpoint) in {@code --region} (or the SDK's default region chain), with
 * credentials from the SDK's default credentials chain. Credentials are never printed.
 *
 * <p>The command builds and owns the {@link DynamoDbClient}: the store never closes a client it
 * was given, so the store returned by {@link #open} closes the client after the store.
 *
 * @param table the table's name
 * @param endpoint {@code --endpoint}, or null for the region's AWS endpoint
 * @param region {@code --region}, or null for the SDK's default region chain
 */
public record DynamoStoreSpec(
        String table, @Nullable URI endpoint, @Nullable String region) implements StoreSpec {

    private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,64}");

    static DynamoStoreSpec parse(String table) {
        try {
            DynamoMetaStore.builder().tableName(table); // the builder's own rule, checked before any request
        } catch (InvalidArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
        return new DynamoStoreSpec(table, null, null);
    }

    @Override
    public String text() {
        return "dynamo:" + table;
    }

    /**
     * {@link #text()}. picocli turns the parsed option into a string on every run: a record's
     * generated {@code toString} would cost each start a method-handle bootstrap.
     */
    @Override
    public String toString() {
        return text();
    }

    @Override
    public StoreSpec withConnection(@Nullable String endpointText, @Nullable String regionText) {
        URI uri = endpointText == null ? null : endpoint(endpointText);
        if (regionText != null && !REGION.matcher(regionText).matches()) {
            throw new UsageException("--region '" + regionText + "' is not a region name: write one such as us-east-1");
        }
        return new DynamoStoreSpec(table, uri, regionText);
    }

    private static URI endpoint(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null
                || uri.getHost() == null
                || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))) {
            throw new UsageException("--endpoint '" + text + "' is not an http or https URI with a host:"
                    + " write one such as http://127.0.0.1:8000");
        }
        return uri;
    }

    /**
     * Opens the table, which must exist unless {@code createIfMissing} ({@code put --create-store}):
     * then an on-demand table with the lake-meta key schema and the default shard count is created.
     * The shard count of an existing table is adopted from its layout record.
     */
    @Override
    public MetaStore open(boolean createIfMissing) {
        Region resolvedRegion =
                region(region, DefaultAwsRegionProviderChain.builder().build());
        DefaultCredentialsProvider credentials =
                DefaultCredentialsProvider.builder().build();
        DynamoDbClient client = null;
        try {
            requireCredentials(credentials);
            DynamoDbClientBuilder builder = DynamoDbClient.builder()
                    .region(resolvedRegion)
                    .credentialsProvider(credentials)
                    .httpClientBuilder(UrlConnectionHttpClient.builder()) // built, and closed, by the client
                    .overrideConfiguration(RequestBudget::applyTo);
            if (endpoint != null) {
                builder.endpointOverride(endpoint);
            }
            client = builder.build();
            MetaStore store = openStore(client, createIfMissing, resolvedRegion);
            return new ClientOwningStore(store, client, credentials);
        } catch (RuntimeException e) {
            closeQuietly(client, e);
            closeQuietly(credentials, e);
            throw e;
        }
    }

    private MetaStore openStore(DynamoDbClient client, boolean createIfMissing, Region resolvedRegion) {
        String where = where(resolvedRegion);
        try {
            return DynamoMetaStore.builder()
                    .client(client)
                    .tableName(table)
                    .createTableIfMissing(createIfMissing)
                    .build(); // no shardCount: adopt the table's (16 for a table created here)
        } catch (StoreUnavailableException e) {
            throw new StoreOpenException(
                    "cannot open DynamoDB table '" + table + "' at " + where + ": " + e.getMessage()
                            + (unreachable(e) ? " (check --endpoint and that the server is running)" : ""),
                    e);
        } catch (DynamoStoreException e) {
            if (e.getCause() instanceof SdkException) {
                // DynamoDB or the client refused: permissions, rejected credentials, a rejected request
                throw new StoreOpenException(
                        "cannot open DynamoDB table '" + table + "' at " + where + ": " + e.getMessage(), e);
            }
            // the table itself cannot be used: missing, another key schema, a foreign layout record
            if (!createIfMissing && tableMissing(client)) {
                throw new UsageException("DynamoDB table '" + table + "' does not exist at " + where
                        + ": pass the name of an existing lake-meta table, create it as docs/guides/dynamodb.md"
                        + " shows, or let put --create-store create it");
            }
            throw new UsageException("cannot open DynamoDB table '" + table + "' at " + where + ": " + e.getMessage());
        } catch (InvalidArgumentException e) {
            throw new UsageException("cannot open DynamoDB table '" + table + "' at " + where + ": " + e.getMessage());
        }
    }

    private boolean tableMissing(DynamoDbClient client) {
        try {
            client.describeTable(r -> r.tableName(table));
            return false;
        } catch (ResourceNotFoundException e) {
            return true;
        } catch (SdkException e) {
            return false; // report what the store said
        }
    }

    private String where(Region resolvedRegion) {
        return (endpoint != null ? endpoint.toString() : "the AWS endpoint") + " (region " + resolvedRegion.id() + ")";
    }

    private static boolean unreachable(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ConnectException
                    || c instanceof UnknownHostException
                    || c instanceof NoRouteToHostException) {
                return true;
            }
        }
        return false;
    }

    /** {@code --region}, else the SDK's region chain; a clear usage error when neither names one. */
    public static Region region(@Nullable String flag, AwsRegionProvider chain) {
        if (flag != null) {
            return Region.of(flag);
        }
        try {
            return chain.getRegion();
        } catch (SdkException e) {
            throw new UsageException("no AWS region: pass --region (such as --region us-east-1), or set AWS_REGION"
                    + " or a region in your AWS profile");
        }
    }

    /**
     * Fails with a one-line usage error, before any request, when the SDK's credentials chain
     * finds nothing. What the chain found is never printed.
     */
    public static void requireCredentials(AwsCredentialsProvider credentials) {
        try {
            credentials.resolveCredentials();
        } catch (SdkException e) {
            throw new UsageException("no AWS credentials: the AWS SDK's default chain found none; set AWS_ACCESS_KEY_ID"
                    + " and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (for dynamo-local any values work)");
        }
    }

    private static void closeQuietly(@Nullable AutoCloseable resource, RuntimeException failure) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    /** The store, closing the client (and the credentials provider) the command built, after the store. */
    static final class ClientOwningStore extends ForwardingMetaStore {

        private final SdkAutoCloseable client;
        private final SdkAutoCloseable credentials;

        ClientOwningStore(MetaStore store, SdkAutoCloseable client, SdkAutoCloseable credentials) {
            super(store);
            this.client = client;
            this.credentials = credentials;
        }

        @Override
        public void close() {
            try {
                super.close();
            } finally {
                try {
                    client.close();
                } finally {
                    credentials.close();
                }
            }
        }
    }
}
