package io.lake.meta.testserver.dynamodb.engine;

import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A table's primary key: the partition (HASH) key and an optional sort (RANGE) key. */
record KeySchema(
        String hashName, AttrValue.Type hashType, @Nullable String rangeName, AttrValue.@Nullable Type rangeType) {

    static final int MAX_HASH_KEY_BYTES = 2048;
    static final int MAX_RANGE_KEY_BYTES = 1024;

    boolean hasRange() {
        return rangeName != null;
    }

    boolean isKeyAttribute(String name) {
        return name.equals(hashName) || name.equals(rangeName);
    }

    private static DynamoException mismatch() {
        return Errors.validation("The provided key element does not match the schema");
    }

    /** The key of a {@code Key} member (GetItem, DeleteItem, UpdateItem, transactions). */
    PrimaryKey fromKey(@Nullable Map<String, AttrValue> key) {
        if (key == null || key.size() != (hasRange() ? 2 : 1)) {
            throw mismatch();
        }
        AttrValue hash = key.get(hashName);
        AttrValue range = hasRange() ? key.get(rangeName) : null;
        if (hash == null || hash.type() != hashType || (hasRange() && (range == null || range.type() != rangeType))) {
            throw mismatch();
        }
        checkValues(hash, range);
        return PrimaryKey.of(hash, range);
    }

    /** The key of a whole item (PutItem), with PutItem's messages. */
    PrimaryKey fromItem(Map<String, AttrValue> item) {
        AttrValue hash = requireInItem(item, hashName, hashType);
        AttrValue range = rangeName != null && rangeType != null ? requireInItem(item, rangeName, rangeType) : null;
        checkValues(hash, range);
        return PrimaryKey.of(hash, range);
    }

    private static AttrValue requireInItem(Map<String, AttrValue> item, String name, AttrValue.Type type) {
        AttrValue v = item.get(name);
        if (v == null) {
            throw Errors.validation(
                    "One or more parameter values were invalid: Missing the key " + name + " in the item");
        }
        if (v.type() != type) {
            throw Errors.validation("One or more parameter values were invalid: Type mismatch for key " + name
                    + " expected: " + type + " actual: " + v.type());
        }
        return v;
    }

    private void checkValues(AttrValue hash, @Nullable AttrValue range) {
        checkNotEmpty(hashName, hash);
        if (range != null) {
            checkNotEmpty(rangeName, range);
        }
        checkHashSize(hash);
        if (range != null) {
            checkRangeSize(range);
        }
    }

    static void checkHashSize(AttrValue hash) {
        if (length(hash) > MAX_HASH_KEY_BYTES) {
            throw Errors.validation("One or more parameter values were invalid: "
                    + "Size of hashkey has exceeded the maximum size limit of2048 bytes");
        }
    }

    static void checkRangeSize(AttrValue range) {
        if (length(range) > MAX_RANGE_KEY_BYTES) {
            throw Errors.validation("One or more parameter values were invalid: "
                    + "Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
        }
    }

    /** Rejects an empty string or binary in a key attribute. */
    static void checkNotEmpty(@Nullable String name, AttrValue v) {
        if (v.type() == AttrValue.Type.S && v.s().isEmpty()) {
            throw Errors.validation("One or more parameter values are not valid. The AttributeValue for a key "
                    + "attribute cannot contain an empty string value. Key: " + name);
        }
        if (v.type() == AttrValue.Type.B && v.b().length == 0) {
            throw Errors.validation("One or more parameter values are not valid. The AttributeValue for a key "
                    + "attribute cannot contain an empty binary value. Key: " + name);
        }
    }

    private static int length(AttrValue v) {
        switch (v.type()) {
            case S:
                return v.s().getBytes(StandardCharsets.UTF_8).length;
            case B:
                return v.b().length;
            default:
                return 0; // numbers are bounded by their 38 digits
        }
    }

    /** The key attributes of an item, as a Key / LastEvaluatedKey map. */
    Map<String, AttrValue> keyOf(Map<String, AttrValue> item) {
        Map<String, AttrValue> key = new LinkedHashMap<>();
        key.put(hashName, item.get(hashName));
        if (hasRange()) {
            key.put(rangeName, item.get(rangeName));
        }
        return key;
    }
}
