package io.lake.meta.dynamo;

import io.lake.meta.KeyPrefix;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.TooManyFamiliesException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The families one table holds ({@link KeyFamilies}), in either layout: a strongly consistent
 * {@code Scan} of the whole table, page after page ({@code LastEvaluatedKey}), whose projection
 * returns each item's hash key alone ({@code k} in v1, the whole key; {@code pk = family#shard}
 * in v2); internal records (hash keys starting with {@code #}) are left out.
 *
 * <p><b>Cost.</b> DynamoDB cannot list distinct hash keys, nor seek from one family to the next,
 * so this reads every item of the table: read capacity in proportion to the table's size, about
 * one unit per 4 KB of items (a consistent read; the projection shrinks the response, not what is
 * read), and one request per 1 MB of items. A table of 10 GB costs about 2.6 million read units
 * and 10 000 requests, once per call; the memory held is one response and the families found.
 * A call stops early, with {@link TooManyFamiliesException}, once it found more than
 * {@value KeyFamilies#MAX_FAMILIES} families. Stateless, so safe to call from several threads.
 */
final class TableFamilies {

    private static final Comparator<String> PAGE_ORDER =
            Comparator.comparing((String family) -> KeyPrefix.family(family).utf8(), Arrays::compareUnsigned);

    private final DynamoDbClient client;
    private final String table;
    private final ItemLayout layout;

    TableFamilies(DynamoDbClient client, String table, ItemLayout layout) {
        this.client = client;
        this.table = table;
        this.layout = layout;
    }

    /**
     * Every family holding an item, in page order.
     *
     * @param store the store, for the message of {@link TooManyFamiliesException}
     */
    List<String> list(String store) {
        String hash = layout.hashAttribute();
        TreeSet<String> families = new TreeSet<>(PAGE_ORDER);
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse response;
            try {
                response = client.scan(r -> r.tableName(table)
                        .consistentRead(true)
                        .projectionExpression("#h")
                        .expressionAttributeNames(Map.of("#h", hash))
                        .exclusiveStartKey(from));
            } catch (SdkException e) {
                throw Failures.onRead("Scan for the key families", e, table);
            }
            for (Map<String, AttributeValue> item : response.items()) {
                AttributeValue hashKey = item.get(hash);
                if (hashKey == null || hashKey.s() == null) {
                    throw new DynamoStoreException(
                            "Scan of table '" + table + "' returned an item without the string hash key " + hash + " ("
                                    + item + "): the table is not in the " + layout.descriptor() + " layout");
                }
                String family = layout.familyOfHashKey(hashKey.s(), table);
                if (family != null && families.add(family) && families.size() > KeyFamilies.MAX_FAMILIES) {
                    throw new TooManyFamiliesException(store);
                }
            }
            start = response.hasLastEvaluatedKey()
                            && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey()
                    : null;
        } while (start != null);
        return List.copyOf(families);
    }
}
