package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Where one logical key's item lives in a table and what it looks like: the piece the v1 and v2
 * layouts have in common, so single-item writes, transactions and batch reads are written once.
 * Both layouts keep the value's bytes in {@value #VALUE} (B, may be empty) and the full logical
 * key in the attribute {@link #keyAttribute()}.
 */
interface ItemLayout {

    String VALUE = "v";

    /** The attribute that holds the full logical key (the v2 range key, the v1 hash key). */
    String keyAttribute();

    /** The primary key of {@code key}'s item. */
    Map<String, AttributeValue> keyOf(MetaKey key);

    /** The item that stores {@code value} under {@code key}. */
    Map<String, AttributeValue> itemOf(MetaKey key, MetaValue value);

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
}
