package io.lake.meta.testserver.dynamodb.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes attribute values in DynamoDB JSON, with the service's validation messages.
 *
 * @since 0.1.0
 */
public final class AttrJson {

    /** The longest attribute name, in UTF-8 bytes (65 536 is rejected). */
    public static final int MAX_ATTRIBUTE_NAME_BYTES = 65535;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private AttrJson() {}

    /** Reads an item (a map of attribute values); {@code null} when the node is absent. */
    public static @Nullable Map<String, AttrValue> readItem(@Nullable JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw Errors.serialization(jsonTypeName(node) + " cannot be converted to Map");
        }
        Map<String, AttrValue> item = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            String problem = attributeNameProblem(f.getKey());
            if (problem != null) {
                throw Errors.validation("One or more parameter values were invalid: " + problem);
            }
            item.put(f.getKey(), read(f.getValue(), 1));
        }
        return item;
    }

    /**
     * What is wrong with a top-level attribute name (1..65535 UTF-8 bytes), or null. The wording
     * is this emulator's: DynamoDB's exact text is not known, only the limit.
     */
    public static @Nullable String attributeNameProblem(String name) {
        if (name.isEmpty()) {
            return "Empty attribute name";
        }
        if (name.length() * 3 > MAX_ATTRIBUTE_NAME_BYTES) { // cheap bound first: at most 3 bytes per char
            int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes > MAX_ATTRIBUTE_NAME_BYTES) {
                return "Attribute name is too large, it must be at most " + MAX_ATTRIBUTE_NAME_BYTES
                        + " bytes; attribute name size: " + bytes;
            }
        }
        return null;
    }

    /**
     * Reads one attribute value outside an item (an expression attribute value), throwing DynamoDB's
     * ValidationException when it is malformed. Its depth is counted from 0, not 1: DynamoDB lets such
     * a value nest one level deeper than an item attribute (TransactWriteItems evaluates a condition
     * on a 32-wrap value and refuses a 33-wrap one); a value that goes into an item is checked there.
     */
    public static AttrValue read(JsonNode node) {
        return read(node, 0);
    }

    private static AttrValue read(JsonNode node, int depth) {
        if (depth > Nesting.MAX_LEVELS) {
            throw Errors.validation(Nesting.TOO_DEEP);
        }
        if (node == null || node.isNull()) {
            throw Errors.validation(
                    "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        }
        if (!node.isObject()) {
            throw Errors.serialization(jsonTypeName(node) + " cannot be converted to AttributeValue");
        }
        String typeName = null;
        JsonNode value = null;
        int count = 0;
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            if (f.getValue().isNull() || !isTypeName(f.getKey())) {
                continue;
            }
            count++;
            typeName = f.getKey();
            value = f.getValue();
        }
        if (count == 0) {
            throw Errors.validation(
                    "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        }
        if (count > 1) {
            throw Errors.validation(
                    "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
        }
        Objects.requireNonNull(typeName); // count is 1: both were set
        Objects.requireNonNull(value);
        AttrValue.Type type = AttrValue.Type.valueOf(typeName);
        switch (type) {
            case S:
                return AttrValue.s(text(value, "String"));
            case N:
                return AttrValue.n(number(text(value, "String")));
            case B:
                return AttrValue.b(binary(value));
            case BOOL:
                if (!value.isBoolean()) {
                    throw Errors.serialization(jsonTypeName(value) + " cannot be converted to Boolean");
                }
                return AttrValue.bool(value.booleanValue());
            case NULL:
                if (!value.isBoolean()) {
                    throw Errors.serialization(jsonTypeName(value) + " cannot be converted to Boolean");
                }
                if (!value.booleanValue()) {
                    throw Errors.validation(
                            "One or more parameter values were invalid: Null attribute value types must have the value of true");
                }
                return AttrValue.nul();
            case M: {
                if (!value.isObject()) {
                    throw Errors.serialization(jsonTypeName(value) + " cannot be converted to Map");
                }
                Map<String, AttrValue> m = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> e : value.properties()) {
                    m.put(e.getKey(), read(e.getValue(), depth + 1));
                }
                return AttrValue.m(m);
            }
            case L: {
                if (!value.isArray()) {
                    throw Errors.serialization(jsonTypeName(value) + " cannot be converted to List");
                }
                List<AttrValue> l = new ArrayList<>();
                for (JsonNode e : value) {
                    l.add(read(e, depth + 1));
                }
                return AttrValue.l(l);
            }
            default:
                return readSet(type, value);
        }
    }

    private static AttrValue readSet(AttrValue.Type type, JsonNode value) {
        if (!value.isArray()) {
            throw Errors.serialization(jsonTypeName(value) + " cannot be converted to List");
        }
        if (value.size() == 0) {
            switch (type) {
                case SS:
                    throw Errors.validation(
                            "One or more parameter values were invalid: An string set  may not be empty");
                case NS:
                    throw Errors.validation(
                            "One or more parameter values were invalid: An number set  may not be empty");
                default:
                    throw Errors.validation(
                            "One or more parameter values were invalid: Binary sets should not be empty");
            }
        }
        List<AttrValue> elements = new ArrayList<>();
        Set<AttrValue> seen = new HashSet<>();
        boolean duplicates = false;
        for (JsonNode e : value) {
            AttrValue element;
            switch (type) {
                case SS:
                    element = AttrValue.s(text(e, "String"));
                    break;
                case NS:
                    element = AttrValue.n(number(text(e, "String")));
                    break;
                default:
                    element = AttrValue.b(binary(e));
                    break;
            }
            duplicates |= !seen.add(element);
            elements.add(element);
        }
        if (duplicates) {
            switch (type) {
                case SS:
                    throw Errors.validation("One or more parameter values were invalid: Input collection "
                            + elements.stream().map(AttrValue::s).collect(Collectors.joining(", ", "[", "]"))
                            + " contains duplicates.");
                case NS:
                    throw Errors.validation("Input collection contains duplicates");
                default:
                    throw Errors.validation("One or more parameter values were invalid: Input collection "
                            + elements.stream()
                                    .map(v -> Base64.getEncoder().encodeToString(v.rawBytes()))
                                    .collect(Collectors.joining(", ", "[", "]"))
                            + "of type BS contains duplicates.");
            }
        }
        return AttrValue.set(type, elements);
    }

    private static boolean isTypeName(String name) {
        switch (name) {
            case "S":
            case "N":
            case "B":
            case "BOOL":
            case "NULL":
            case "M":
            case "L":
            case "SS":
            case "NS":
            case "BS":
                return true;
            default:
                return false;
        }
    }

    private static String text(JsonNode node, String target) {
        if (!node.isTextual()) {
            throw Errors.serialization(jsonTypeName(node) + " cannot be converted to " + target);
        }
        return node.textValue();
    }

    private static BigDecimal number(String text) {
        try {
            return Numbers.parse(text);
        } catch (IllegalArgumentException e) {
            throw Errors.validation(e.getMessage());
        }
    }

    private static byte[] binary(JsonNode node) {
        return Base64Text.decode(text(node, "Blob"));
    }

    /** How the service's deserializer names a JSON value it did not expect. */
    public static String jsonTypeName(JsonNode node) {
        if (node.isNumber()) {
            return "NUMBER_VALUE";
        }
        if (node.isBoolean()) {
            return node.booleanValue() ? "TRUE_VALUE" : "FALSE_VALUE";
        }
        if (node.isTextual()) {
            return "STRING_VALUE";
        }
        if (node.isArray()) {
            return "Start of list";
        }
        if (node.isObject()) {
            return "Start of structure or map";
        }
        return "Unrecognized token";
    }

    public static ObjectNode write(Map<String, AttrValue> item) {
        ObjectNode node = JSON.objectNode();
        for (Map.Entry<String, AttrValue> e : item.entrySet()) {
            node.set(e.getKey(), write(e.getValue()));
        }
        return node;
    }

    public static ObjectNode write(AttrValue v) {
        ObjectNode node = JSON.objectNode();
        switch (v.type()) {
            case S:
                node.put("S", v.s());
                break;
            case N:
                node.put("N", v.nText());
                break;
            case B:
                node.put("B", Base64.getEncoder().encodeToString(v.rawBytes()));
                break;
            case BOOL:
                node.put("BOOL", v.boolValue());
                break;
            case NULL:
                node.put("NULL", true);
                break;
            case M:
                node.set("M", write(v.m()));
                break;
            case L: {
                ArrayNode list = node.putArray("L");
                v.elements().forEach(e -> list.add(write(e)));
                break;
            }
            default: {
                ArrayNode set = node.putArray(v.type().name());
                for (AttrValue e : v.elements()) {
                    switch (e.type()) {
                        case S:
                            set.add(e.s());
                            break;
                        case N:
                            set.add(e.nText());
                            break;
                        default:
                            set.add(Base64.getEncoder().encodeToString(e.rawBytes()));
                            break;
                    }
                }
                break;
            }
        }
        return node;
    }
}
