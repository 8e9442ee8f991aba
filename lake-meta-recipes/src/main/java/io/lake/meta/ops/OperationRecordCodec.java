package io.lake.meta.ops;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The stored form of an operation record, record version {@value #VERSION}:
 *
 * <pre>{@code
 * {"v":1,"digest":"sha256:9f86...","state":"completed","holder":"node-a","epoch":3,"attempt":1,
 *  "startedAtMillis":...,"endedAtMillis":...,"outcome":"{\"order\":42}","attemptId":"3f0c..."}
 * }</pre>
 *
 * Known fields in this order, then every unknown field as it was read. {@code attemptId} is new
 * on every write, so no two writes leave the same bytes: a writer whose answer was lost re-reads
 * the record and recognises its own write by its exact bytes. Optional when reading (records
 * written before it existed lack it).
 */
final class OperationRecordCodec {

    static final int VERSION = 1;

    private static final Set<String> KNOWN = Set.of(
            "v",
            "digest",
            "state",
            "holder",
            "epoch",
            "attempt",
            "startedAtMillis",
            "endedAtMillis",
            "outcome",
            "reason",
            "attemptId");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private OperationRecordCodec() {}

    static ObjectNode noUnknownFields() {
        return JSON.createObjectNode();
    }

    /** Encodes a record with these fields. */
    static OperationRecord encode(
            OperationId id,
            String digest,
            OperationState state,
            OperationOwner owner,
            long attempt,
            long startedAtMillis,
            @Nullable Long endedAtMillis,
            @Nullable String outcome,
            @Nullable String reason,
            ObjectNode unknownFields) {
        ObjectNode root = JSON.createObjectNode();
        root.put("v", VERSION);
        root.put("digest", digest);
        root.put("state", state.wireName());
        root.put("holder", owner.holder());
        root.put("epoch", owner.epoch());
        root.put("attempt", attempt);
        root.put("startedAtMillis", startedAtMillis);
        if (endedAtMillis != null) {
            root.put("endedAtMillis", endedAtMillis);
        }
        if (outcome != null) {
            root.put("outcome", outcome);
        }
        if (reason != null) {
            root.put("reason", reason);
        }
        root.put("attemptId", UUID.randomUUID().toString());
        unknownFields.properties().forEach(f -> root.set(f.getKey(), f.getValue()));
        MetaValue value;
        try {
            value = MetaValue.of(JSON.writeValueAsBytes(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the record of operation " + id, e);
        }
        return new OperationRecord(
                id,
                digest,
                state,
                owner,
                attempt,
                startedAtMillis,
                endedAtMillis,
                outcome,
                reason,
                unknownFields.deepCopy(),
                value);
    }

    /**
     * Decodes the value stored under {@code key}.
     *
     * @throws CorruptOperationRecordException naming the key, when the key or the bytes are not a record
     */
    static OperationRecord decode(MetaKey key, MetaValue value) {
        OperationId id;
        try {
            id = OperationId.fromKey(key);
        } catch (InvalidArgumentException e) {
            throw new CorruptOperationRecordException(key, String.valueOf(e.getMessage()));
        }
        ObjectNode root = parse(key, value);
        long version = integer(key, root, "v", 1);
        if (version != VERSION) {
            throw new CorruptOperationRecordException(
                    key, "record version " + version + " is not " + VERSION + ", the version this library reads");
        }
        OperationState state = state(key, root);
        String digest = text(key, root, "digest");
        OperationOwner owner = new OperationOwner(text(key, root, "holder"), integer(key, root, "epoch", 0));
        long attempt = integer(key, root, "attempt", 1);
        long startedAt = integer(key, root, "startedAtMillis", Long.MIN_VALUE);
        Long endedAt = state.isTerminal() ? integer(key, root, "endedAtMillis", Long.MIN_VALUE) : null;
        String outcome = state == OperationState.COMPLETED ? text(key, root, "outcome") : null;
        String reason = state == OperationState.ABANDONED ? text(key, root, "reason") : null;
        ObjectNode unknown = JSON.createObjectNode();
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            if (!KNOWN.contains(field.getKey())) {
                unknown.set(field.getKey(), field.getValue());
            }
        }
        return new OperationRecord(
                id, digest, state, owner, attempt, startedAt, endedAt, outcome, reason, unknown, value);
    }

    private static ObjectNode parse(MetaKey key, MetaValue value) {
        JsonNode root;
        try {
            root = JSON.readTree(value.toByteArray());
        } catch (JsonProcessingException e) {
            throw new CorruptOperationRecordException(key, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CorruptOperationRecordException(key, "unreadable: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new CorruptOperationRecordException(key, "not a JSON object");
        }
        return (ObjectNode) root;
    }

    private static OperationState state(MetaKey key, ObjectNode root) {
        String name = text(key, root, "state");
        for (OperationState state : OperationState.values()) {
            if (state.wireName().equals(name)) {
                return state;
            }
        }
        throw new CorruptOperationRecordException(
                key, "state '" + name + "' is not in_progress, completed or abandoned");
    }

    private static String text(MetaKey key, ObjectNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || !node.isTextual()) {
            throw new CorruptOperationRecordException(key, "field '" + field + "' is missing or not a string");
        }
        return node.asText();
    }

    private static long integer(MetaKey key, ObjectNode root, String field, long min) {
        JsonNode node = root.get(field);
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < min) {
            throw new CorruptOperationRecordException(
                    key, "field '" + field + "' is missing or not an integer from " + min + " to " + Long.MAX_VALUE);
        }
        return node.asLong();
    }
}
