package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The legacy v1 table layout: one item per logical key, found by the whole key.
 *
 * <pre>
 *   k (S, HASH) = the full logical key         e.g. "tbl/ns1/orders"
 *   v (B)       = the value's bytes (may be empty)
 * </pre>
 *
 * A prefix has no key condition here: a page is a {@code Scan} with a filter, which evaluates
 * every family (see {@link ScanPages}). Internal records (the migration's completion marker) have
 * hash keys that start with {@code #}; a public key starts with a family in {@code [a-z0-9]}, so
 * none can reach them.
 */
final class V1Layout implements ItemLayout {

    static final V1Layout INSTANCE = new V1Layout();

    static final String HASH = "k";
    static final String DESCRIPTOR = "dynamodb-v1";

    private V1Layout() {}

    @Override
    public String descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public String hashAttribute() {
        return HASH;
    }

    @Override
    public String keyAttribute() {
        return HASH;
    }

    @Override
    public Map<String, AttributeValue> keyOf(MetaKey key) {
        return keyOf(key.toString());
    }

    static Map<String, AttributeValue> keyOf(String hashKey) {
        return Map.of(HASH, AttributeValue.fromS(hashKey));
    }

    @Override
    public Map<String, AttributeValue> itemOf(MetaKey key, MetaValue value) {
        return Map.of(HASH, AttributeValue.fromS(key.toString()), VALUE, V2Layout.b(value));
    }

    @Override
    public PageReader pageReader(DynamoDbClient client, String table) {
        return new ScanPages(client, table);
    }

    /** The hash key is the whole logical key: its family is the text before the first {@code /}. */
    @Override
    public @Nullable String familyOfHashKey(String hashKey, String table) {
        if (ItemLayout.isInternal(hashKey)) {
            return null;
        }
        int slash = hashKey.indexOf('/');
        return ItemLayout.checkedFamily(slash < 0 ? "" : hashKey.substring(0, slash), hashKey, table);
    }
}
