package io.lake.meta.testserver.dynamodb.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code UNPROCESSED} fault: takes the last requests (or keys) out of a batch before it runs
 * and hands them back as {@code UnprocessedItems} / {@code UnprocessedKeys}, in the request's own
 * shape so that the client can resend them as they are.
 */
final class Unprocessed {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Unprocessed() {}

    /** Removes up to {@code count} requests from the end of the batch; returns them in Unprocessed form. */
    static ObjectNode split(String operation, ObjectNode body, int count) {
        ObjectNode taken = JSON.objectNode();
        JsonNode requestItems = body.get("RequestItems");
        if (requestItems == null || !requestItems.isObject()) {
            return taken;
        }
        List<String> tables = new ArrayList<>();
        requestItems.fieldNames().forEachRemaining(tables::add);
        int left = count;
        for (int t = tables.size() - 1; t >= 0 && left > 0; t--) {
            String table = tables.get(t);
            JsonNode spec = requestItems.get(table);
            ArrayNode list = operation.equals("BatchWriteItem")
                    ? (spec.isArray() ? (ArrayNode) spec : null)
                    : (spec.isObject()
                                    && spec.get("Keys") != null
                                    && spec.get("Keys").isArray()
                            ? (ArrayNode) spec.get("Keys")
                            : null);
            if (list == null) {
                continue;
            }
            ArrayNode moved = JSON.arrayNode();
            while (left > 0 && list.size() > 0) {
                moved.insert(0, list.remove(list.size() - 1));
                left--;
            }
            if (operation.equals("BatchWriteItem")) {
                taken.set(table, moved);
            } else {
                ObjectNode keys = ((ObjectNode) spec).deepCopy();
                keys.set("Keys", moved);
                taken.set(table, keys);
            }
            if (list.size() == 0) {
                ((ObjectNode) requestItems).remove(table);
            }
        }
        return taken;
    }

    static boolean isEmptyBatch(ObjectNode body) {
        JsonNode requestItems = body.get("RequestItems");
        return requestItems != null && requestItems.isObject() && requestItems.size() == 0;
    }

    /** The answer when every request of the batch was left unprocessed. */
    static ObjectNode emptyResult(String operation) {
        ObjectNode result = JSON.objectNode();
        if (operation.equals("BatchGetItem")) {
            result.putObject("Responses");
        }
        return result;
    }
}
