package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** The documented capacity arithmetic: reads per 4 KB (halved when eventual), writes per 1 KB. */
class CapacityFidelityTest extends ServerTestSupport {

    @BeforeEach
    void table() {
        createTable("cap", ScalarAttributeType.N);
    }

    /** An item of exactly {@code bytes} bytes: "pk"(2)+"p"(1) + "sk"(2)+N(2 for 1) + "v"(1) + value. */
    private static void putSized(int sk, int bytes) {
        client.putItem(r -> r.tableName("cap")
                .item(Map.of("pk", s("p"), "sk", n(Integer.toString(sk)), "v", s("x".repeat(bytes - 8)))));
    }

    private static ConsumedCapacity get(int sk, boolean consistent) {
        return client.getItem(r -> r.tableName("cap")
                        .key(Map.of("pk", s("p"), "sk", n(Integer.toString(sk))))
                        .consistentRead(consistent)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
    }

    @Test
    void getItem_4096BytesIsOneUnit_4097IsTwo_eventualIsHalf() {
        putSized(1, 4096);
        putSized(2, 4097);
        assertThat(get(1, true).capacityUnits()).isEqualTo(1.0);
        assertThat(get(2, true).capacityUnits()).isEqualTo(2.0);
        assertThat(get(2, false).capacityUnits()).isEqualTo(1.0);
        assertThat(get(1, true).tableName()).isEqualTo("cap");
    }

    @Test
    void getItem_missingItemCostsOneOrHalf() {
        assertThat(get(9, true).capacityUnits()).isEqualTo(1.0);
        assertThat(get(9, false).capacityUnits()).isEqualTo(0.5);
    }

    @Test
    void putItem_1024BytesIsOneUnit_1025IsTwo_andOldSizeCounts() {
        ConsumedCapacity one = client.putItem(r -> r.tableName("cap")
                        .item(Map.of("pk", s("p"), "sk", n("1"), "v", s("x".repeat(1016))))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(one.capacityUnits()).isEqualTo(1.0);
        ConsumedCapacity two = client.putItem(r -> r.tableName("cap")
                        .item(Map.of("pk", s("p"), "sk", n("2"), "v", s("x".repeat(1017))))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(two.capacityUnits()).isEqualTo(2.0);
        ConsumedCapacity shrink = client.putItem(r -> r.tableName("cap")
                        .item(Map.of("pk", s("p"), "sk", n("2")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(shrink.capacityUnits()).isEqualTo(2.0);
    }

    @Test
    void indexesMode_addsTheTableShare() {
        ConsumedCapacity c = client.putItem(r -> r.tableName("cap")
                        .item(Map.of("pk", s("p"), "sk", n("1")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        assertThat(c.capacityUnits()).isEqualTo(1.0);
        assertThat(c.table().capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void query_sumsEvaluatedItemsBeforeFilterAndRoundsOnce() {
        for (int i = 0; i < 10; i++) {
            putSized(i, 1000);
        }
        ConsumedCapacity strong = client.query(r -> r.tableName("cap")
                        .keyConditionExpression("pk = :p")
                        .filterExpression("v = :none")
                        .consistentRead(true)
                        .expressionAttributeValues(Map.of(":p", s("p"), ":none", s("none")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(strong.capacityUnits()).isEqualTo(3.0); // 10 000 bytes -> ceil(10000/4096) = 3
        ConsumedCapacity eventual = client.query(r -> r.tableName("cap")
                        .keyConditionExpression("pk = :p")
                        .expressionAttributeValues(Map.of(":p", s("p")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(eventual.capacityUnits()).isEqualTo(1.5);
    }

    @Test
    void query_emptyResultStillCostsOneUnit() {
        ConsumedCapacity c = client.query(r -> r.tableName("cap")
                        .keyConditionExpression("pk = :p")
                        .consistentRead(true)
                        .expressionAttributeValues(Map.of(":p", s("none")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(c.capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void noCapacityRequested_noCapacityMember() {
        assertThat(client.putItem(r -> r.tableName("cap").item(Map.of("pk", s("p"), "sk", n("1"))))
                        .consumedCapacity())
                .isNull();
    }
}
