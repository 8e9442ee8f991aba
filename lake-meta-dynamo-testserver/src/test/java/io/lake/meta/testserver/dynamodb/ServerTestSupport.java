package io.lake.meta.testserver.dynamodb;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** One server per test class, a real SDK v2 client, and a clean state before every test. */
abstract class ServerTestSupport {

    static DynamoDbTestServer server;
    static DynamoDbClient client;

    @BeforeAll
    static void startServer() {
        server = DynamoDbTestServer.create().start();
        client = newClient(server);
    }

    @AfterAll
    static void stopServer() {
        client.close();
        server.close();
    }

    @BeforeEach
    void cleanState() {
        server.reset();
        server.hooks(ServerHooks.NONE);
    }

    static DynamoDbClient newClient(DynamoDbTestServer s) {
        return DynamoDbClient.builder()
                .endpointOverride(s.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .build();
    }

    /** A client that never retries, to observe the first answer. */
    static DynamoDbClient newNoRetryClient(DynamoDbTestServer s) {
        return DynamoDbClient.builder()
                .endpointOverride(s.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(
                        o -> o.retryStrategy(software.amazon.awssdk.awscore.retry.AwsRetryStrategy.doNotRetry()))
                .build();
    }

    /** A PAY_PER_REQUEST table with a string hash key {@code pk} and, when given, a sort key {@code sk}. */
    static void createTable(String name, ScalarAttributeType rangeType) {
        var builder = software.amazon.awssdk.services.dynamodb.model.CreateTableRequest.builder()
                .tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST);
        if (rangeType == null) {
            builder.attributeDefinitions(AttributeDefinition.builder()
                            .attributeName("pk")
                            .attributeType(ScalarAttributeType.S)
                            .build())
                    .keySchema(KeySchemaElement.builder()
                            .attributeName("pk")
                            .keyType(KeyType.HASH)
                            .build());
        } else {
            builder.attributeDefinitions(
                            AttributeDefinition.builder()
                                    .attributeName("pk")
                                    .attributeType(ScalarAttributeType.S)
                                    .build(),
                            AttributeDefinition.builder()
                                    .attributeName("sk")
                                    .attributeType(rangeType)
                                    .build())
                    .keySchema(
                            KeySchemaElement.builder()
                                    .attributeName("pk")
                                    .keyType(KeyType.HASH)
                                    .build(),
                            KeySchemaElement.builder()
                                    .attributeName("sk")
                                    .keyType(KeyType.RANGE)
                                    .build());
        }
        client.createTable(builder.build());
    }

    static AttributeValue s(String v) {
        return AttributeValue.builder().s(v).build();
    }

    static AttributeValue n(String v) {
        return AttributeValue.builder().n(v).build();
    }

    static AttributeValue b(byte... v) {
        return AttributeValue.builder().b(SdkBytes.fromByteArray(v)).build();
    }

    static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", s(pk));
    }
}
