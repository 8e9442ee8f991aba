package io.lake.meta.testserver.dynamodb.engine;

import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.Map;

/**
 * A Query's ExclusiveStartKey, checked with the messages and in the order DynamoDB uses for a
 * Query (a Scan words them differently, see {@link ReadOperations}): its shape and each key
 * attribute's type while the key condition is analysed (see {@link KeyCondition.StartKeyChecks}),
 * then its values, then whether it lies inside the query. A start key need not name an existing
 * item: the query resumes after its position.
 */
final class QueryStartKey implements KeyCondition.StartKeyChecks {

    private final KeySchema schema;
    private final Map<String, AttrValue> key;

    QueryStartKey(KeySchema schema, Map<String, AttrValue> key) {
        this.schema = schema;
        this.key = key;
    }

    private static DynamoException invalid() {
        return Errors.validation("The provided starting key is invalid");
    }

    private static DynamoException cannotRestart() {
        return Errors.validation("The query can return at most one row and cannot be restarted");
    }

    /** Exactly as many attributes as the key has. */
    @Override
    public void shape() {
        if (key.size() != (schema.hasRange() ? 2 : 1)) {
            throw invalid();
        }
    }

    @Override
    public void attribute(String name, AttrValue.Type type) {
        AttrValue value = key.get(name);
        if (value == null) {
            throw invalid();
        }
        if (value.type() != type) {
            throw Errors.validation("The provided key element does not match the schema");
        }
    }

    /**
     * The position to resume after, once {@code condition} was analysed with these checks. With a
     * sort-key condition the sort key is checked first, and a start key in another partition
     * "cannot be restarted", as can no query whose condition fixes the sort key.
     */
    PrimaryKey position(KeyCondition condition) {
        PrimaryKey start;
        try {
            start = schema.fromKey(key);
        } catch (DynamoException badValue) {
            throw Errors.validation("The provided starting key is invalid: " + badValue.getMessage());
        }
        boolean samePartition = start.hash().equals(condition.hashValue);
        if (!condition.hasRangeCondition()) {
            if (!samePartition) {
                throw Errors.validation(
                        "The provided starting key is outside query boundaries based on provided conditions");
            }
            return start;
        }
        if (!condition.matchesRange(start.range())) {
            throw Errors.validation("The provided starting key does not match the range key predicate");
        }
        if (!samePartition || condition.rangeIsEquality()) {
            throw cannotRestart();
        }
        return start;
    }
}
