package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

@SuppressWarnings("unchecked") // the SDK's builder methods take generic varargs
class TableOperationsFidelityTest extends ServerTestSupport {

    @Test
    void createTable_payPerRequest_answersCreatingThenDescribeSaysActive() {
        CreateTableResponse created = client.createTable(r -> r.tableName("tbl1")
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build()));
        TableDescription d = created.tableDescription();
        assertThat(d.tableStatus()).isEqualTo(TableStatus.CREATING);
        assertThat(d.tableArn()).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/tbl1");
        assertThat(d.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(d.provisionedThroughput().readCapacityUnits()).isZero();
        assertThat(d.creationDateTime()).isNotNull();
        TableDescription described =
                client.describeTable(r -> r.tableName("tbl1")).table();
        assertThat(described.tableStatus()).isEqualTo(TableStatus.ACTIVE);
        assertThat(described.keySchema())
                .extracting(KeySchemaElement::attributeName)
                .containsExactly("pk");
        assertThat(described.itemCount()).isZero();
    }

    @Test
    void createTable_provisionedHashAndRange_keepsThroughputAndSchema() {
        client.createTable(r -> r.tableName("tbl2")
                .attributeDefinitions(
                        AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build(),
                        AttributeDefinition.builder()
                                .attributeName("sk")
                                .attributeType(ScalarAttributeType.N)
                                .build())
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName("sk")
                                .keyType(KeyType.RANGE)
                                .build())
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(7L)));
        TableDescription d = client.describeTable(r -> r.tableName("tbl2")).table();
        assertThat(d.provisionedThroughput().readCapacityUnits()).isEqualTo(5L);
        assertThat(d.provisionedThroughput().writeCapacityUnits()).isEqualTo(7L);
        assertThat(d.keySchema()).extracting(KeySchemaElement::keyType).containsExactly(KeyType.HASH, KeyType.RANGE);
        assertThat(d.billingModeSummary()).isNull();
    }

    @Test
    void createTable_provisionedWithoutThroughput_isRejected() {
        assertThatThrownBy(() -> client.createTable(r -> r.tableName("tbl3")
                        .attributeDefinitions(AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .keySchema(KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build())))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith(
                        "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits "
                                + "must both be specified when BillingMode is PROVISIONED");
    }

    @Test
    void createTable_twice_isResourceInUse() {
        createTable("dup", null);
        assertThatThrownBy(() -> createTable("dup", null))
                .isInstanceOf(ResourceInUseException.class)
                .hasMessageStartingWith("Table already exists: dup");
    }

    @Test
    void createTable_undefinedKeyAttribute_isRejected() {
        assertThatThrownBy(() -> client.createTable(r -> r.tableName("tbl4")
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(AttributeDefinition.builder()
                                .attributeName("x")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .keySchema(KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build())))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith("One or more parameter values were invalid: Some index key attributes are not "
                        + "defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [x]");
    }

    @Test
    void createTable_firstKeyNotHash_isRejected() {
        assertThatThrownBy(() -> client.createTable(r -> r.tableName("tbl5")
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .keySchema(KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.RANGE)
                                .build())))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }

    @Test
    void createTable_shortName_failsMemberConstraint() {
        assertThatThrownBy(() -> createTable("ab", null))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
                        + "constraint: Member must have length greater than or equal to 3");
    }

    @Test
    void createTable_globalSecondaryIndex_isRejectedAsUnsupported() {
        assertThatThrownBy(() -> client.createTable(r -> r.tableName("tbl6")
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .keySchema(KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build())
                        .globalSecondaryIndexes(g -> g.indexName("gsi")
                                .keySchema(KeySchemaElement.builder()
                                        .attributeName("pk")
                                        .keyType(KeyType.HASH)
                                        .build())
                                .projection(p -> p.projectionType("ALL")))))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageContaining(
                        "Unsupported by the lake-meta DynamoDB test server: parameter GlobalSecondaryIndexes");
    }

    @Test
    void tableExistsWaiter_succeedsOnItsFirstPoll() {
        createTable("waited", null);
        var waited = client.waiter().waitUntilTableExists(r -> r.tableName("waited"));
        assertThat(waited.attemptsExecuted()).isEqualTo(1);
        assertThat(waited.matched().response()).isPresent();
    }

    @Test
    void creationDelay_tableIsCreatingUntilTheClockPassesIt() {
        TransactWriteFidelityTest.MutableClock clock = new TransactWriteFidelityTest.MutableClock();
        try (DynamoDbTestServer own = DynamoDbTestServer.builder()
                        .clock(clock)
                        .tableCreationDelay(java.time.Duration.ofSeconds(5))
                        .build()
                        .start();
                software.amazon.awssdk.services.dynamodb.DynamoDbClient c = newClient(own)) {
            c.createTable(r -> r.tableName("slow")
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(AttributeDefinition.builder()
                            .attributeName("pk")
                            .attributeType(ScalarAttributeType.S)
                            .build())
                    .keySchema(KeySchemaElement.builder()
                            .attributeName("pk")
                            .keyType(KeyType.HASH)
                            .build()));
            assertThat(c.describeTable(r -> r.tableName("slow")).table().tableStatus())
                    .isEqualTo(TableStatus.CREATING);
            assertThatThrownBy(() -> c.getItem(r -> r.tableName("slow").key(key("a"))))
                    .isInstanceOf(ResourceNotFoundException.class)
                    .hasMessageStartingWith("Requested resource not found");
            assertThatThrownBy(() -> c.deleteTable(r -> r.tableName("slow")))
                    .isInstanceOf(ResourceInUseException.class)
                    .hasMessageStartingWith(
                            "Attempt to change a resource which is still in use: Table is being created: slow");
            clock.advance(java.time.Duration.ofSeconds(5));
            assertThat(c.describeTable(r -> r.tableName("slow")).table().tableStatus())
                    .isEqualTo(TableStatus.ACTIVE);
            assertThat(c.getItem(r -> r.tableName("slow").key(key("a"))).hasItem())
                    .isFalse();
        }
    }

    @Test
    void deleteTable_answersDeletingThenTableIsGone() {
        createTable("gone", null);
        assertThat(client.deleteTable(r -> r.tableName("gone"))
                        .tableDescription()
                        .tableStatus())
                .isEqualTo(TableStatus.DELETING);
        assertThatThrownBy(() -> client.describeTable(r -> r.tableName("gone")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("Requested resource not found: Table: gone not found");
        assertThatThrownBy(() -> client.deleteTable(r -> r.tableName("gone")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("Requested resource not found: Table: gone not found");
    }

    @Test
    void dataPlaneOnMissingTable_isRequestedResourceNotFound() {
        assertThatThrownBy(() -> client.getItem(r -> r.tableName("nope").key(key("a"))))
                .isInstanceOf(ResourceNotFoundException.class)
                .satisfies(e -> assertThat(((ResourceNotFoundException) e)
                                .awsErrorDetails()
                                .errorMessage())
                        .isEqualTo("Requested resource not found"));
    }

    @Test
    void dataPlaneCalls_acceptTheTableArn() {
        createTable("byarn", null);
        String arn = client.describeTable(r -> r.tableName("byarn")).table().tableArn();
        client.putItem(r -> r.tableName(arn).item(key("a")));
        assertThat(client.getItem(r -> r.tableName(arn).key(key("a"))).hasItem())
                .isTrue();
        assertThat(client.describeTable(r -> r.tableName(arn)).table().tableName())
                .isEqualTo("byarn");
        assertThat(server.statistics().table("byarn").requests("GetItem")).isEqualTo(1);
    }

    @Test
    void listTables_pagesInNameOrderWithLastEvaluatedTableName() {
        for (String name : new String[] {"ccc", "aaa", "bbb"}) {
            createTable(name, null);
        }
        ListTablesResponse first = client.listTables(r -> r.limit(2));
        assertThat(first.tableNames()).containsExactly("aaa", "bbb");
        assertThat(first.lastEvaluatedTableName()).isEqualTo("bbb");
        ListTablesResponse second = client.listTables(r -> r.limit(2).exclusiveStartTableName("bbb"));
        assertThat(second.tableNames()).containsExactly("ccc");
        assertThat(second.lastEvaluatedTableName()).isNull();
        assertThat(client.listTablesPaginator().tableNames()).containsExactly("aaa", "bbb", "ccc");
    }
}
