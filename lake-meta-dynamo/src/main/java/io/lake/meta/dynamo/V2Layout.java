package io.lake.meta.dynamo;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.spi.PageTokenCodec;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The v2 table layout: where a logical key lives and how its item looks.
 *
 * <pre>
 *   pk (S, HASH)  = family + "#" + shard        e.g. "tbl#7"
 *   sk (S, RANGE) = the full logical key         e.g. "tbl/ns1/orders"
 *   v  (B)        = the value's bytes (may be empty)
 * </pre>
 *
 * The layout record lives at {@code pk = sk = "#layout"}. Public hash keys start with a family,
 * whose first character is in {@code [a-z0-9]}, so no public key can reach it.
 */
final class V2Layout implements ItemLayout {

    static final int VERSION = 2;
    static final int DEFAULT_SHARDS = 16;
    static final int MIN_SHARDS = 1;
    static final int MAX_SHARDS = 1024;

    static final String HASH = "pk";
    static final String RANGE = "sk";
    static final String VALUE = "v";

    static final String LAYOUT_KEY = "#layout";
    static final String LAYOUT_FORMAT_ATTR = "format";
    static final String LAYOUT_FORMAT = "lake-meta";
    static final String LAYOUT_VERSION_ATTR = "layout_version";
    static final String LAYOUT_SHARDS_ATTR = "shards";

    private final int shards;
    private final PageTokenCodec tokens;

    V2Layout(int shards) {
        this.shards = shards;
        this.tokens = new PageTokenCodec(descriptor(shards), shards);
    }

    /** Names the backend, layout version and shard count: a token of any other layout is rejected. */
    static String descriptor(int shards) {
        return "dynamodb-v" + VERSION + "/shards=" + shards;
    }

    int shards() {
        return shards;
    }

    PageTokenCodec tokens() {
        return tokens;
    }

    static String bucket(String family, int shard) {
        return family + "#" + shard;
    }

    @Override
    public String keyAttribute() {
        return RANGE;
    }

    @Override
    public Map<String, AttributeValue> keyOf(MetaKey key) {
        return keyOf(bucket(key.family(), ShardFunction.shardOf(key, shards)), key.toString());
    }

    static Map<String, AttributeValue> keyOf(String bucket, String rangeKey) {
        return Map.of(HASH, s(bucket), RANGE, s(rangeKey));
    }

    @Override
    public Map<String, AttributeValue> itemOf(MetaKey key, MetaValue value) {
        String bucket = bucket(key.family(), ShardFunction.shardOf(key, shards));
        return Map.of(HASH, s(bucket), RANGE, s(key.toString()), VALUE, b(value));
    }

    static Map<String, AttributeValue> layoutRecordKey() {
        return keyOf(LAYOUT_KEY, LAYOUT_KEY);
    }

    static Map<String, AttributeValue> layoutRecord(int shards) {
        return Map.of(HASH, s(LAYOUT_KEY), RANGE, s(LAYOUT_KEY),
                LAYOUT_FORMAT_ATTR, s(LAYOUT_FORMAT),
                LAYOUT_VERSION_ATTR, AttributeValue.fromN(Integer.toString(VERSION)),
                LAYOUT_SHARDS_ATTR, AttributeValue.fromN(Integer.toString(shards)));
    }

    /** The value of an item this layout wrote; a clear error for anything else. */
    static MetaValue valueOf(Map<String, AttributeValue> item, String table) {
        AttributeValue v = item.get(VALUE);
        if (v == null || v.b() == null) {
            throw new DynamoStoreException("item " + item.get(RANGE) + " in table '" + table
                    + "' has no binary attribute '" + VALUE + "': the table holds data lake-meta did not write");
        }
        return MetaValue.of(v.b().asByteArrayUnsafe());
    }

    static MetaKey keyOfItem(Map<String, AttributeValue> item, KeyPrefix prefix, String table) {
        AttributeValue sk = item.get(RANGE);
        try {
            MetaKey key = MetaKey.of(Objects.requireNonNull(sk).s()); // an item without one is reported below
            if (prefix.contains(key)) {
                return key;
            }
        } catch (RuntimeException e) {
            // reported below
        }
        throw new DynamoStoreException("item with sort key " + sk + " in table '" + table
                + "' is not a lake-meta key under prefix '" + prefix + "': the table holds data lake-meta did not write");
    }

    static AttributeValue s(String text) {
        return AttributeValue.fromS(text);
    }

    static AttributeValue b(MetaValue value) {
        return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(value.toByteArray()));
    }
}
