package io.lake.meta.testkit.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DynamoDbServerExtensionTest {

    @RegisterExtension
    static final DynamoDbServerExtension DYNAMO = DynamoDbServerExtension.create();

    private static DynamoDbTestServer firstServer;

    private static void createTable(DynamoDbClient client, String name) {
        client.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build())
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build()));
    }

    @Test
    @Order(1)
    void injectsAReadyClientAndTheServer_onLoopback(DynamoDbClient client, DynamoDbTestServer server) {
        firstServer = server;
        assertThat(server.isRunning()).isTrue();
        assertThat(DYNAMO.endpoint().getHost()).isEqualTo("127.0.0.1");
        assertThat(DYNAMO.endpoint().getPort()).isPositive();
        assertThat(client).isSameAs(DYNAMO.client());

        createTable(client, "left-over");
        client.putItem(b -> b.tableName("left-over").item(java.util.Map.of("pk", AttributeValue.fromS("a"))));
        assertThat(client.listTables().tableNames()).containsExactly("left-over");
    }

    @Test
    @Order(2)
    void resetsTheServerBeforeEveryTest_keepingItRunning(DynamoDbClient client, DynamoDbTestServer server) {
        assertThat(server).as("one server for the class").isSameAs(firstServer);
        assertThat(client.listTables().tableNames())
                .as("the table of the test before")
                .isEmpty();
    }

    @Test
    @Order(3)
    void pauseCommitsOf_callsTheHooksInsideWritesToThatTableOnly(DynamoDbClient client) {
        createTable(client, "paused");
        createTable(client, "other");
        List<String> reached = new ArrayList<>();
        RaceHooks hooks = reached::add;
        DYNAMO.pauseCommitsOf("paused", hooks);

        client.putItem(b -> b.tableName("other").item(java.util.Map.of("pk", AttributeValue.fromS("x"))));
        assertThat(reached).isEmpty();
        client.putItem(b -> b.tableName("paused").item(java.util.Map.of("pk", AttributeValue.fromS("x"))));
        assertThat(reached).containsExactly(RaceHooks.COMMIT_CHECKED);
    }

    @Test
    @Order(4)
    void newClient_reachesTheSameServer_andBadArgumentsAreInvalid() {
        DynamoDbClient second = DYNAMO.newClient();
        createTable(DYNAMO.client(), "shared");
        assertThat(second.listTables().tableNames()).containsExactly("shared");

        assertThat(DYNAMO.uniqueTableName("Contract test/é"))
                .matches("[a-zA-Z0-9_.-]{3,255}")
                .isNotEqualTo(DYNAMO.uniqueTableName("Contract test/é"));
        assertThatThrownBy(() -> DYNAMO.uniqueTableName(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DYNAMO.pauseCommitsOf(null, RaceHooks.NONE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("table");
        assertThatThrownBy(() -> DYNAMO.pauseCommitsOf("t", null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("hooks");
    }

    @Nested
    class InANestedClass {

        @Test
        void theOuterClassesServerServes(DynamoDbTestServer server) {
            assertThat(server).isSameAs(firstServer);
            assertThat(server.isRunning()).isTrue();
        }
    }

    @Test
    void startedByHand_servesUntilClosed_whateverTestClassEnds() {
        DynamoDbTestServer server;
        try (DynamoDbServerExtension owned = DynamoDbServerExtension.create().start()) {
            server = owned.server();
            assertThat(owned.start()).as("starting twice is harmless").isSameAs(owned);
            assertThat(owned.server()).isSameAs(server).isNotSameAs(DYNAMO.server());
            createTable(owned.client(), "owned");
            assertThat(owned.client().listTables().tableNames()).containsExactly("owned");
        }
        assertThat(server.isRunning()).as("closed with its owner").isFalse();
    }

    @Test
    void outsideAClass_theExtensionSaysHowToRegisterIt() {
        DynamoDbServerExtension unused = DynamoDbServerExtension.create();
        assertThatThrownBy(unused::client)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("static @RegisterExtension");
    }
}
