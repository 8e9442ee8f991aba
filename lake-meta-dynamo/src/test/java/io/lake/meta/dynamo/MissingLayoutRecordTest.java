package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What the refusal to open a table without its layout record tells from the sampled items. */
class MissingLayoutRecordTest {

    private static Map<String, AttributeValue> stored(String key, int shards) {
        MetaKey k = MetaKey.of(key);
        return Map.of(
                "pk",
                AttributeValue.fromS(k.family() + "#" + ShardFunction.shardOf(k, shards)),
                "sk",
                AttributeValue.fromS(key),
                "v",
                AttributeValue.fromB(SdkBytes.fromUtf8String("v")));
    }

    @Test
    void manyItemsOfOneLayout_nameItsShardCount_andTheRecordToWriteBack() {
        List<Map<String, AttributeValue>> sample =
                IntStream.range(0, 20).mapToObj(i -> stored("tbl/ns/t" + i, 16)).toList();
        assertThat(MissingLayoutRecord.refusal("t1", sample, true).getMessage())
                .contains("at least 20 item(s)")
                .contains("placed as with shards = 16")
                .contains("--table-name t1")
                .contains("\"shards\":{\"N\":\"16\"}");
    }

    @Test
    void oneItem_fitsManyCounts_soTheCommandLeavesTheCountToTheReader() {
        String message = MissingLayoutRecord.refusal("t1", List.of(stored("tbl/ns1/orders", 16)), false)
                .getMessage();
        assertThat(message)
                .contains("holds 1 item(s)")
                .contains("any of shards = ")
                .contains("16 is the default")
                .contains("\"shards\":{\"N\":\"<N>\"}");
    }

    @Test
    void itemsOfTwoLayouts_fitNoSingleCount() {
        List<Map<String, AttributeValue>> sample = IntStream.range(0, 20)
                .mapToObj(i -> stored("tbl/ns/t" + i, i % 2 == 0 ? 16 : 7))
                .toList();
        assertThat(MissingLayoutRecord.refusal("t1", sample, false).getMessage())
                .contains("No single shard count");
    }

    @Test
    void itemsOfAnotherSchema_areNotLakeMetas() {
        Map<String, AttributeValue> other = Map.of(
                "pk",
                AttributeValue.fromS("tbl#3"),
                "sk",
                AttributeValue.fromS("other/key"),
                "v",
                AttributeValue.fromB(SdkBytes.fromUtf8String("v")));
        assertThat(MissingLayoutRecord.refusal("t1", List.of(other), false).getMessage())
                .contains("that lake-meta did not write")
                .contains("pk=tbl#3, sk=other/key")
                .doesNotContain("put-item");
    }
}
