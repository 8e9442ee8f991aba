package io.lake.meta.cli.kv;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.cli.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads the JSON file of {@code lake-meta txn}: a list of steps, each one object naming one key,
 * in this order of kinds or mixed:
 *
 * <pre>
 * [ {"require": "tbl/sales/_schema", "holds": "v1"},
 *   {"require": "tbl/sales/_frozen", "absent": true},
 *   {"create": "tbl/sales/b", "value": "x"},
 *   {"update": "tbl/sales/a", "expect": "old", "value": "new"},
 *   {"delete": "tbl/sales/c", "expect": "old"} ]
 * </pre>
 *
 * Values are read in the command's encoding (UTF-8 text, {@code --hex} or {@code --base64}).
 * Anything else (an unknown member, a missing one, a step of two kinds, a file that is not UTF-8
 * JSON) is a usage error naming the step.
 */
final class TransactionFile {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> KINDS = Set.of("require", "create", "update", "delete");

    private TransactionFile() {}

    /** Reads {@code path}, or standard input for {@code -}. */
    static Transaction read(String path, InputStream stdin, ValueEncoding encoding) {
        byte[] bytes;
        try {
            bytes = path.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(path));
        } catch (NoSuchFileException e) {
            throw new UsageException("--file " + path + " does not exist");
        } catch (IOException e) {
            throw new UsageException("--file " + path + " could not be read: " + e.getMessage());
        }
        return parse(strictUtf8(bytes, path), path, encoding);
    }

    static Transaction parse(String text, String source, ValueEncoding encoding) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UsageException(source + " is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isArray() || root.isEmpty()) {
            throw new UsageException(source + " must hold a non-empty JSON list of steps, such as"
                    + " [{\"create\": \"tbl/ns/k\", \"value\": \"v\"}]");
        }
        Transaction.Builder transaction = Transaction.builder();
        for (int i = 0; i < root.size(); i++) {
            Step step = new Step(root.get(i), source + " step " + (i + 1), encoding);
            switch (step.kind()) {
                case "require" -> transaction.require(step.condition());
                default -> transaction.apply(step.mutation());
            }
        }
        return transaction.build();
    }

    private static String strictUtf8(byte[] bytes, String path) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new UsageException("--file " + path + " is not UTF-8 text");
        }
    }

    /** One object of the list. */
    private record Step(JsonNode node, String where, ValueEncoding encoding) {

        String kind() {
            if (!node.isObject()) {
                throw new UsageException(where + " is not a JSON object");
            }
            List<String> kinds = new ArrayList<>();
            node.fieldNames().forEachRemaining(name -> {
                if (KINDS.contains(name)) {
                    kinds.add(name);
                }
            });
            if (kinds.size() != 1) {
                throw new UsageException(where + " must name exactly one of require, create, update, delete; it names "
                        + (kinds.isEmpty() ? "none" : String.join(" and ", kinds)));
            }
            return kinds.get(0);
        }

        Condition condition() {
            MetaKey key = MetaKey.of(text("require"));
            if (node.has("holds") == node.has("absent")) {
                throw new UsageException(where + " must say either \"holds\": VALUE or \"absent\": true");
            }
            if (node.has("absent")) {
                only("require", "absent");
                if (!node.get("absent").isBoolean() || !node.get("absent").booleanValue()) {
                    throw new UsageException(where + ": \"absent\" must be true");
                }
                return Condition.absent(key);
            }
            only("require", "holds");
            return Condition.holds(key, encoding.decode(text("holds"), where + " \"holds\""));
        }

        Mutation mutation() {
            String kind = kind();
            MetaKey key = MetaKey.of(text(kind));
            return switch (kind) {
                case "create" -> {
                    only("create", "value");
                    yield Mutation.create(key, encoding.decode(text("value"), where + " \"value\""));
                }
                case "update" -> {
                    only("update", "expect", "value");
                    yield Mutation.update(
                            key,
                            encoding.decode(text("expect"), where + " \"expect\""),
                            encoding.decode(text("value"), where + " \"value\""));
                }
                default -> {
                    only("delete", "expect");
                    yield Mutation.delete(key, encoding.decode(text("expect"), where + " \"expect\""));
                }
            };
        }

        private String text(String member) {
            JsonNode value = node.get(member);
            if (value == null) {
                throw new UsageException(where + " is missing \"" + member + "\"");
            }
            if (!value.isTextual()) {
                throw new UsageException(where + ": \"" + member + "\" must be a string, not " + kindOf(value)
                        + ": pass its text as a string, such as " + asJsonString(value.toString()));
            }
            return value.textValue();
        }

        private static String kindOf(JsonNode value) {
            if (value.isObject()) {
                return "a JSON object";
            }
            if (value.isArray()) {
                return "a JSON array";
            }
            return value.isNull()
                    ? "null"
                    : "a JSON " + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        }

        private static String asJsonString(String text) {
            try {
                return JSON.writeValueAsString(text);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e); // a String always serializes
            }
        }

        private void only(String... members) {
            Set<String> allowed = Set.of(members);
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!allowed.contains(name)) {
                    throw new UsageException(where + " has an unknown member \"" + name + "\" (a " + members[0]
                            + " step takes " + String.join(", ", members) + ")");
                }
            }
        }
    }
}
