package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.spi.PageTokenCodec;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
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
    public String descriptor() {
        return descriptor(shards);
    }

    @Override
    public String hashAttribute() {
        return HASH;
    }

    @Override
    public String keyAttribute() {
        return RANGE;
    }

    @Override
    public PageReader pageReader(DynamoDbClient client, String table) {
        return new ShardedPageReader(client, table, this);
    }

    /** The hash key is {@code family#shard}: its family is the text before the {@code #}. */
    @Override
    public @Nullable String familyOfHashKey(String hashKey, String table) {
        if (ItemLayout.isInternal(hashKey)) {
            return null;
        }
        int hash = hashKey.indexOf('#');
        return ItemLayout.checkedFamily(hash < 0 ? "" : hashKey.substring(0, hash), hashKey, table);
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
        return Map.of(
                HASH,
                s(LAYOUT_KEY),
                RANGE,
                s(LAYOUT_KEY),
                LAYOUT_FORMAT_ATTR,
                s(LAYOUT_FORMAT),
                LAYOUT_VERSION_ATTR,
                AttributeValue.fromN(Integer.toString(VERSION)),
                LAYOUT_SHARDS_ATTR,
                AttributeValue.fromN(Integer.toString(shards)));
    }

    static AttributeValue s(String text) {
        return AttributeValue.fromS(text);
    }

    static AttributeValue b(MetaValue value) {
        return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(value.toByteArray()));
    }
}
