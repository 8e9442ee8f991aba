package io.lake.meta.cli;

import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The in-process DynamoDB server the CLI's tests start, and the client they check its tables with. */
public final class TestDynamo {

    private TestDynamo() {}

    /** A client of {@code server} signing as {@code accessKey}; the caller closes it. */
    public static DynamoDbClient client(DynamoDbTestServer server, String accessKey) {
        return DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, accessKey)))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .build();
    }

    /** Closes the client, then the server; either may be null (a class whose start failed). */
    public static void close(@Nullable DynamoDbClient client, @Nullable DynamoDbTestServer server) {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
