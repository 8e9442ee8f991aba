package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/** The SDK's default (Apache) HTTP client accepts the server's answers too: keep-alive, CRC32, dropped responses. */
@SuppressWarnings(
        "deprecation") // ApacheHttpClient (4.x) is deprecated in favour of apache5-client, still the common default
class ApacheClientCompatibilityTest extends ServerTestSupport {

    static DynamoDbClient apache;

    @BeforeAll
    static void apacheClient() {
        apache = DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(ApacheHttpClient.builder().build())
                .build();
    }

    @AfterAll
    static void closeApache() {
        apache.close();
    }

    @Test
    void conditionalWritesErrorsAndRetriesAfterALostResponse() {
        createTable("apache", null);
        for (int i = 0; i < 20; i++) {
            int n = i;
            apache.putItem(r -> r.tableName("apache").item(Map.of("pk", s("k" + n))));
        }
        assertThatThrownBy(() -> apache.putItem(
                        r -> r.tableName("apache").item(key("k1")).conditionExpression("attribute_not_exists(pk)")))
                .isInstanceOf(ConditionalCheckFailedException.class);
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("TransactWriteItems")
                        .onAttempt(1));
        apache.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                .put(p -> p.tableName("apache").item(key("t")).conditionExpression("attribute_not_exists(pk)"))
                .build()));
        assertThat(apache.scanPaginator(r -> r.tableName("apache").limit(6)).items())
                .hasSize(21);
    }
}
