package io.lake.meta.dynamo;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How one table layout holds logical keys: where a key's item lives and what it looks like, how a
 * prefix is paged, and where an item's family is written. {@link DynamoTableStore} is written once
 * over it, and so are single-item writes, transactions, batch reads and table scans. Both layouts
 * keep the value's bytes in {@value #VALUE} (B, may be empty) and the full logical key in the
 * attribute {@link #keyAttribute()}; their internal records have hash keys that start with
 * {@code #}, which no public key can produce.
 */
sealed interface ItemLayout permits V1Layout, V2Layout {

    String VALUE = "v";

    /** Names the backend and everything that changes what a page token means, as a store's toString shows it. */
    String descriptor();

    /** The table's hash key attribute. */
    String hashAttribute();

    /** The attribute that holds the full logical key (the v2 range key, the v1 hash key). */
    String keyAttribute();

    /** The primary key of {@code key}'s item. */
    Map<String, AttributeValue> keyOf(MetaKey key);

    /** The item that stores {@code value} under {@code key}. */
    Map<String, AttributeValue> itemOf(MetaKey key, MetaValue value);

    /** The reader of this layout's prefix pages (and their tokens) over {@code table}. */
    PageReader pageReader(DynamoDbClient client, String table);

    /**
     * The family of the item whose hash key is {@code hashKey}; null for one of lake-meta's internal
     * records.
     *
     * @throws DynamoStoreException if the hash key is not one this layout writes
     */
    @Nullable
    String familyOfHashKey(String hashKey, String table);

    /** The value of an item this layout wrote; a clear error for anything else. */
    default MetaValue valueIn(Map<String, AttributeValue> item, String table) {
        AttributeValue v = item.get(VALUE);
        if (v == null || v.b() == null) {
            throw new DynamoStoreException("item " + item.get(keyAttribute()) + " in table '" + table
                    + "' has no binary attribute '" + VALUE + "': the table holds data lake-meta did not write");
        }
        return MetaValue.of(v.b().asByteArrayUnsafe());
    }

    /** The logical key an item of this layout holds, as text; null when the item has none. */
    default @Nullable String keyTextOf(Map<String, AttributeValue> item) {
        AttributeValue k = item.get(keyAttribute());
        return k == null ? null : k.s();
    }

    /** The logical key an item (or a LastEvaluatedKey) holds, which a page of {@code prefix} must lie under. */
    default MetaKey keyUnder(Map<String, AttributeValue> item, KeyPrefix prefix, String table) {
        String text = keyTextOf(item);
        try {
            MetaKey key = MetaKey.of(Objects.requireNonNull(text)); // an item without a key is reported below
            if (prefix.contains(key)) {
                return key;
            }
        } catch (RuntimeException e) {
            // reported below
        }
        throw new DynamoStoreException("item with " + keyAttribute() + " = " + text + " in table '" + table
                + "' is not a lake-meta key under prefix '" + prefix
                + "': the table holds data lake-meta did not write");
    }

    /** Whether a hash key is one of lake-meta's internal records rather than a logical key's. */
    static boolean isInternal(String hashKey) {
        return hashKey != null && hashKey.startsWith("#");
    }

    /** A family read out of a hash key; a clear error when it is none. */
    static String checkedFamily(String family, String hashKey, String table) {
        try {
            return KeyPrefix.family(family).family();
        } catch (RuntimeException e) {
            throw new DynamoStoreException(
                    "item with hash key " + hashKey + " in table '" + table
                            + "' holds no lake-meta key family: the table holds data lake-meta did not write",
                    e);
        }
    }
}
