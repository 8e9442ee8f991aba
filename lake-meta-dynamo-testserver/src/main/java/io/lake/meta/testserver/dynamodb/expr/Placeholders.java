package io.lake.meta.testserver.dynamodb.expr;

import com.fasterxml.jackson.databind.JsonNode;
import io.lake.meta.testserver.dynamodb.model.AttrJson;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The ExpressionAttributeNames and ExpressionAttributeValues of one request (or one action of a
 * transaction), checked in DynamoDB's order: presence without expressions, emptiness, key
 * syntax, value validity; then, while expressions are parsed, undefined references; finally,
 * after every expression of the request was parsed, unused entries ({@link #checkAllUsed()}).
 *
 * @since 0.1.0
 */
public final class Placeholders {

    private static final Pattern NAME_KEY = Pattern.compile("^#[0-9a-zA-Z_]+$");
    private static final Pattern VALUE_KEY = Pattern.compile("^:[0-9a-zA-Z_]+$");

    /** The longest placeholder ({@code #name} or {@code :value}), in bytes. */
    static final int MAX_PLACEHOLDER_BYTES = 255;

    private final Map<String, String> names;
    private final Map<String, AttrValue> values;
    private final Set<String> usedNames = new LinkedHashSet<>();
    private final Set<String> usedValues = new LinkedHashSet<>();

    private Placeholders(Map<String, String> names, Map<String, AttrValue> values) {
        this.names = names;
        this.values = values;
    }

    /** No placeholders at all. */
    public static Placeholders none() {
        return new Placeholders(Map.of(), Map.of());
    }

    /**
     * Reads and checks the two maps.
     *
     * @param namesNode the ExpressionAttributeNames member, or null
     * @param valuesNode the ExpressionAttributeValues member, or null
     * @param anyExpression whether the request carries any expression at all
     * @param valueExpressions the names of the request's expressions that may use values, as
     *     DynamoDB lists them in its message (such as "ConditionExpression"), when none of them is
     *     present; null when at least one is present
     */
    public static Placeholders read(
            @Nullable JsonNode namesNode,
            @Nullable JsonNode valuesNode,
            boolean anyExpression,
            @Nullable String valueExpressions) {
        // a JSON null is no member
        JsonNode namesGiven = namesNode == null || namesNode.isNull() ? null : namesNode;
        JsonNode valuesGiven = valuesNode == null || valuesNode.isNull() ? null : valuesNode;
        if (namesGiven != null && !anyExpression) {
            throw Errors.validation("ExpressionAttributeNames can only be specified when using expressions");
        }
        if (valuesGiven != null && valueExpressions != null) {
            throw Errors.validation("ExpressionAttributeValues can only be specified when using expressions: "
                    + valueExpressions + (valueExpressions.contains(" and ") ? " are null" : " is null"));
        }
        if (namesGiven != null && !namesGiven.isObject()) {
            throw Errors.serialization(AttrJson.jsonTypeName(namesGiven) + " cannot be converted to Map");
        }
        if (valuesGiven != null && !valuesGiven.isObject()) {
            throw Errors.serialization(AttrJson.jsonTypeName(valuesGiven) + " cannot be converted to Map");
        }
        if (namesGiven != null && namesGiven.size() == 0) {
            throw Errors.validation("ExpressionAttributeNames must not be empty");
        }
        if (valuesGiven != null && valuesGiven.size() == 0) {
            throw Errors.validation("ExpressionAttributeValues must not be empty");
        }
        Map<String, String> names = new LinkedHashMap<>();
        if (namesGiven != null) {
            for (Map.Entry<String, JsonNode> e : namesGiven.properties()) {
                if (!NAME_KEY.matcher(e.getKey()).matches()) {
                    throw Errors.validation(
                            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + e.getKey() + "\"");
                }
                checkKeyLength("ExpressionAttributeNames", e.getKey());
                if (!e.getValue().isTextual()) {
                    throw Errors.serialization(AttrJson.jsonTypeName(e.getValue()) + " cannot be converted to String");
                }
                String problem = AttrJson.attributeNameProblem(e.getValue().textValue());
                if (problem != null) {
                    throw Errors.validation(
                            "ExpressionAttributeNames contains invalid value: " + problem + " for key " + e.getKey());
                }
                names.put(e.getKey(), e.getValue().textValue());
            }
        }
        Map<String, AttrValue> values = new LinkedHashMap<>();
        if (valuesGiven != null) {
            for (Map.Entry<String, JsonNode> e : valuesGiven.properties()) {
                if (!VALUE_KEY.matcher(e.getKey()).matches()) {
                    throw Errors.validation("ExpressionAttributeValues contains invalid key: Syntax error; key: \""
                            + e.getKey() + "\"");
                }
                checkKeyLength("ExpressionAttributeValues", e.getKey());
                try {
                    values.put(e.getKey(), AttrJson.read(e.getValue()));
                } catch (DynamoException invalid) {
                    if (!invalid.errorName().equals("ValidationException")) {
                        throw invalid;
                    }
                    throw Errors.validation("ExpressionAttributeValues contains invalid value: " + invalid.getMessage()
                            + " for key " + e.getKey());
                }
            }
        }
        return new Placeholders(names, values);
    }

    /**
     * A placeholder is at most 255 bytes long (the keys match an ASCII pattern, so characters are
     * bytes). The wording is this emulator's: DynamoDB's exact text is not known, only the limit.
     */
    private static void checkKeyLength(String member, String key) {
        if (key.length() > MAX_PLACEHOLDER_BYTES) {
            throw Errors.validation(member + " contains invalid key: The key is too long, it must be at most "
                    + MAX_PLACEHOLDER_BYTES + " bytes; key size: " + key.length() + ", key: \"" + key + "\"");
        }
    }

    boolean hasName(String placeholder) {
        return names.containsKey(placeholder);
    }

    boolean hasValue(String placeholder) {
        return values.containsKey(placeholder);
    }

    void markName(String placeholder) {
        usedNames.add(placeholder);
    }

    void markValue(String placeholder) {
        usedValues.add(placeholder);
    }

    /** The attribute name a path step stands for. */
    public String name(String step) {
        if (!step.startsWith("#")) {
            return step;
        }
        String name = names.get(step);
        if (name == null) {
            throw new IllegalStateException("placeholder " + step + " is not defined, yet the expression parsed");
        }
        return name;
    }

    /** The attribute value a placeholder stands for; the parser refused expressions using an undefined one. */
    public AttrValue value(String placeholder) {
        AttrValue value = values.get(placeholder);
        if (value == null) {
            throw new IllegalStateException(
                    "placeholder " + placeholder + " is not defined, yet the expression parsed");
        }
        return value;
    }

    /** Raises DynamoDB's error for the first kind of unused placeholder, names first. */
    public void checkAllUsed() {
        List<String> unusedNames = new ArrayList<>();
        for (String k : names.keySet()) {
            if (!usedNames.contains(k)) {
                unusedNames.add(k);
            }
        }
        if (!unusedNames.isEmpty()) {
            throw Errors.validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {"
                    + String.join(", ", unusedNames) + "}");
        }
        List<String> unusedValues = new ArrayList<>();
        for (String k : values.keySet()) {
            if (!usedValues.contains(k)) {
                unusedValues.add(k);
            }
        }
        if (!unusedValues.isEmpty()) {
            throw Errors.validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {"
                    + String.join(", ", unusedValues) + "}");
        }
    }
}
