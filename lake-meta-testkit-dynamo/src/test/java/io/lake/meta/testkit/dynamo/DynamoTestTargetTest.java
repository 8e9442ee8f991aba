package io.lake.meta.testkit.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

class DynamoTestTargetTest {

    @Test
    void decide_explicitEndpointWins_evenWithDocker() {
        assertThat(DynamoTestTarget.decide(Map.of(DynamoTestTarget.ENDPOINT_ENV, "http://127.0.0.1:4566"), () -> true))
                .isEqualTo(DynamoTestTarget.Kind.ENDPOINT);
    }

    @Test
    void decide_dockerWithoutEndpoint_isLocalStack() {
        assertThat(DynamoTestTarget.decide(Map.of(), () -> true)).isEqualTo(DynamoTestTarget.Kind.LOCALSTACK);
        assertThat(DynamoTestTarget.decide(Map.of(DynamoTestTarget.ENDPOINT_ENV, " "), () -> true))
                .isEqualTo(DynamoTestTarget.Kind.LOCALSTACK);
    }

    @Test
    void decide_neither_isInProcess() {
        assertThat(DynamoTestTarget.decide(Map.of(), () -> false)).isEqualTo(DynamoTestTarget.Kind.IN_PROCESS);
    }

    @Test
    void start_explicitEndpoint_usesRegionAndLocalStackCredentialDefaults() {
        DynamoTestTarget target = DynamoTestTarget.start(
                Map.of(
                        DynamoTestTarget.ENDPOINT_ENV,
                        "http://127.0.0.1:4566",
                        DynamoTestTarget.REGION_ENV,
                        "eu-west-1"),
                () -> false);
        assertThat(target.kind()).isEqualTo(DynamoTestTarget.Kind.ENDPOINT);
        assertThat(target.endpoint()).hasToString("http://127.0.0.1:4566");
        assertThat(target.region().id()).isEqualTo("eu-west-1");
        assertThat(target.credentials().resolveCredentials().accessKeyId()).isEqualTo("test");
        assertThat(target.inProcessServer()).isEmpty();
        assertThat(target.toString()).contains("explicit endpoint").contains(DynamoTestTarget.ENDPOINT_ENV);
        assertThat(target.pauseUnsupportedReason())
                .hasValueSatisfying(reason ->
                        assertThat(reason).contains("nothing can pause").contains("http://127.0.0.1:4566"));
    }

    @Test
    void start_inProcess_servesRealSdkRequests() {
        DynamoTestTarget target = DynamoTestTarget.start(Map.of(), () -> false);
        try (DynamoDbClient client = target.newClient()) {
            assertThat(target.kind()).isEqualTo(DynamoTestTarget.Kind.IN_PROCESS);
            assertThat(target.endpoint().getHost()).isEqualTo("127.0.0.1");
            assertThat(client.listTables().tableNames()).isNotNull();
            assertThat(target.pauseUnsupportedReason())
                    .as("the in-process server can pause a commit")
                    .isEmpty();
        } finally {
            target.inProcessServer().orElseThrow().close();
        }
    }

    @Test
    void uniqueTableName_isValidAndUnique() {
        DynamoTestTarget target =
                DynamoTestTarget.start(Map.of(DynamoTestTarget.ENDPOINT_ENV, "http://127.0.0.1:1"), () -> false);
        String a = target.uniqueTableName("Contract test/é");
        String b = target.uniqueTableName("Contract test/é");
        assertThat(a).matches("[a-zA-Z0-9_.-]{3,255}").isNotEqualTo(b);
    }
}
