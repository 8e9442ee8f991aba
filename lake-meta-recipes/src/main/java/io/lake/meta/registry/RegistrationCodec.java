package io.lake.meta.registry;

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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The stored form of a registration, record version {@value #VERSION}:
 *
 * <pre>{@code
 * {"v":1,"state":"active","generation":3,"location":"s3://lake/sales/orders","format":"iceberg",
 *  "properties":{"owner":"sales"},"droppedAtMillis":...,"purgeStartedAtMillis":...}
 * }</pre>
 *
 * Known fields are written in this order, then every unknown field as it was read.
 */
final class RegistrationCodec {

    static final int VERSION = 1;

    private static final Set<String> KNOWN = Set.of(
            "v", "state", "generation", "location", "format", "properties", "droppedAtMillis", "purgeStartedAtMillis");

    /** Strict on what would make a record ambiguous (duplicate fields, trailing data). */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private RegistrationCodec() {}

    static ObjectNode noUnknownFields() {
        return JSON.createObjectNode();
    }

    /**
     * Decodes the value stored under {@code key}.
     *
     * @throws CorruptRegistrationException naming the key, when the key or the bytes are not a registration
     */
    static TableRegistration decode(MetaKey key, MetaValue value) {
        TableId id;
        try {
            id = TableId.fromKey(key);
        } catch (InvalidArgumentException e) {
            throw new CorruptRegistrationException(key, String.valueOf(e.getMessage()));
        }
        ObjectNode root = parse(key, value);
        int version = (int) integer(key, root, "v", 1, Integer.MAX_VALUE);
        if (version != VERSION) {
            throw new CorruptRegistrationException(
                    key, "record version " + version + " is not " + VERSION + ", the version this library reads");
        }
        TableState state = state(key, root);
        long generation = integer(key, root, "generation", 1, Long.MAX_VALUE);
        TableSpec spec;
        try {
            spec = TableSpec.of(text(key, root, "location"), text(key, root, "format"))
                    .withProperties(properties(key, root));
        } catch (InvalidArgumentException e) {
            throw new CorruptRegistrationException(key, String.valueOf(e.getMessage()));
        }
        Long droppedAt =
                state.isTombstone() ? integer(key, root, "droppedAtMillis", Long.MIN_VALUE, Long.MAX_VALUE) : null;
        Long purgeStartedAt = state == TableState.PURGING
                ? integer(key, root, "purgeStartedAtMillis", Long.MIN_VALUE, Long.MAX_VALUE)
                : null;
        ObjectNode unknown = JSON.createObjectNode();
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            if (!KNOWN.contains(field.getKey())) {
                unknown.set(field.getKey(), field.getValue());
            }
        }
        return new TableRegistration(id, spec, generation, state, droppedAt, purgeStartedAt, unknown, value);
    }

    /** The registration {@code id} would hold with these fields, encoded. */
    static TableRegistration encode(
            TableId id,
            TableSpec spec,
            long generation,
            TableState state,
            @Nullable Long droppedAtMillis,
            @Nullable Long purgeStartedAtMillis,
            ObjectNode unknownFields) {
        ObjectNode root = JSON.createObjectNode();
        root.put("v", VERSION);
        root.put("state", state.wireName());
        root.put("generation", generation);
        root.put("location", spec.location());
        root.put("format", spec.format());
        ObjectNode properties = root.putObject("properties");
        spec.properties().forEach(properties::put);
        if (droppedAtMillis != null) {
            root.put("droppedAtMillis", droppedAtMillis);
        }
        if (purgeStartedAtMillis != null) {
            root.put("purgeStartedAtMillis", purgeStartedAtMillis);
        }
        unknownFields.properties().forEach(f -> root.set(f.getKey(), f.getValue()));
        MetaValue value;
        try {
            value = MetaValue.of(JSON.writeValueAsBytes(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the registration of " + id, e);
        }
        return new TableRegistration(
                id, spec, generation, state, droppedAtMillis, purgeStartedAtMillis, unknownFields.deepCopy(), value);
    }

    private static ObjectNode parse(MetaKey key, MetaValue value) {
        JsonNode root;
        try {
            root = JSON.readTree(value.toByteArray());
        } catch (JsonProcessingException e) {
            throw new CorruptRegistrationException(key, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CorruptRegistrationException(key, "unreadable: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new CorruptRegistrationException(key, "not a JSON object");
        }
        return (ObjectNode) root;
    }

    private static TableState state(MetaKey key, ObjectNode root) {
        String name = text(key, root, "state");
        for (TableState state : TableState.values()) {
            if (state.wireName().equals(name)) {
                return state;
            }
        }
        throw new CorruptRegistrationException(key, "state '" + name + "' is not active, dropped or purging");
    }

    private static String text(MetaKey key, ObjectNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || !node.isTextual()) {
            throw new CorruptRegistrationException(key, "field '" + field + "' is missing or not a string");
        }
        return node.asText();
    }

    private static long integer(MetaKey key, ObjectNode root, String field, long min, long max) {
        JsonNode node = root.get(field);
        if (node == null
                || !node.isIntegralNumber()
                || !node.canConvertToLong()
                || node.asLong() < min
                || node.asLong() > max) {
            throw new CorruptRegistrationException(
                    key, "field '" + field + "' is missing or not an integer from " + min + " to " + max);
        }
        return node.asLong();
    }

    private static Map<String, String> properties(MetaKey key, ObjectNode root) {
        JsonNode node = root.get("properties");
        Map<String, String> properties = new LinkedHashMap<>();
        if (node == null) {
            return properties;
        }
        if (!node.isObject()) {
            throw new CorruptRegistrationException(key, "field 'properties' is not an object");
        }
        for (Map.Entry<String, JsonNode> p : node.properties()) {
            if (!p.getValue().isTextual()) {
                throw new CorruptRegistrationException(key, "property '" + p.getKey() + "' is not a string");
            }
            properties.put(p.getKey(), p.getValue().asText());
        }
        return properties;
    }
}
