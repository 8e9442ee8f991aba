package io.lake.meta.copy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a copy stands, kept in the target under {@link #KEY} and moved forward in the same
 * transaction as the keys it covers, so a killed copy resumes exactly after the last keys written.
 *
 * @param prefixes the plan: the prefixes to copy, in order
 * @param pageSize the source page size the positions refer to
 * @param prefixIndex the prefix being copied ({@code prefixes.size()} when all are done)
 * @param token the source page token the current page starts at, null for the prefix's first page
 * @param doneInPage entries of the current page already written
 */
record ResumeRecord(
        List<KeyPrefix> prefixes,
        int pageSize,
        int prefixIndex,
        @Nullable String token,
        int doneInPage,
        long pages,
        long copied,
        long alreadyEqual,
        long differing,
        List<MetaKey> differingSample) {

    /** The reserved family: a copy refuses prefixes in it and never copies or verifies it. */
    static final String FAMILY = "lake-meta-copy";

    static final MetaKey KEY = MetaKey.of(FAMILY + "/resume");
    private static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The most bytes the plan may take in the record: the rest of a value is left for the largest
     * differing sample (JSON escapes a control character in 6 bytes) and a page token, so the
     * record never outgrows a value in the middle of a copy. A thousand families take 36 000.
     */
    static final int MAX_PLAN_BYTES =
            Limits.MAX_VALUE_BYTES - Verification.SAMPLE_LIMIT * (6 * Limits.MAX_KEY_BYTES + 3) - 8 * 1024;

    /** The bytes {@code prefix} takes in the record's plan. */
    static long planBytes(KeyPrefix prefix) {
        try {
            return JSON.writeValueAsBytes(prefix.toString()).length + 1L;
        } catch (IOException e) {
            throw new IllegalStateException("a prefix could not be written as JSON", e);
        }
    }

    static ResumeRecord start(List<KeyPrefix> prefixes, int pageSize) {
        return new ResumeRecord(prefixes, pageSize, 0, null, 0, 0, 0, 0, 0, List.of());
    }

    MetaValue encode() {
        ObjectNode node = JSON.createObjectNode();
        node.put("format", FORMAT);
        ArrayNode plan = node.putArray("prefixes");
        prefixes.forEach(prefix -> plan.add(prefix.toString()));
        node.put("pageSize", pageSize);
        node.put("prefixIndex", prefixIndex);
        node.put("token", token);
        node.put("doneInPage", doneInPage);
        node.put("pages", pages);
        node.put("copied", copied);
        node.put("alreadyEqual", alreadyEqual);
        node.put("differing", differing);
        ArrayNode sample = node.putArray("differingSample");
        differingSample.forEach(key -> sample.add(key.toString()));
        try {
            return MetaValue.of(JSON.writeValueAsBytes(node));
        } catch (IOException e) {
            throw new IllegalStateException("a resume record could not be written as JSON", e);
        }
    }

    static ResumeRecord decode(MetaValue value) {
        JsonNode node;
        try {
            node = JSON.readTree(value.toByteArray());
        } catch (IOException e) {
            throw new CopyRefusedException(
                    "the target's " + KEY + " is not JSON, so not a resume record: " + e.getMessage());
        }
        if (node == null || node.path("format").asInt(-1) != FORMAT) {
            throw new CopyRefusedException("the target's " + KEY + " is not a resume record of format " + FORMAT
                    + " (found " + (node == null ? "nothing" : node.path("format")) + "); a newer lake-meta wrote"
                    + " it, or something else did: remove it only if no copy into this target is under way");
        }
        try {
            List<KeyPrefix> prefixes = new ArrayList<>();
            for (JsonNode prefix : array(node, "prefixes")) {
                prefixes.add(KeyPrefix.of(text(prefix, "prefixes")));
            }
            List<MetaKey> sample = new ArrayList<>();
            for (JsonNode key : array(node, "differingSample")) {
                sample.add(MetaKey.of(text(key, "differingSample")));
            }
            JsonNode token = node.path("token");
            if (!token.isNull() && !(token.isTextual() && !token.asText().isEmpty())) {
                throw damaged("token", token);
            }
            return new ResumeRecord(
                    List.copyOf(prefixes),
                    (int) number(node, "pageSize", 1, Limits.MAX_PAGE_LIMIT),
                    (int) number(node, "prefixIndex", 0, prefixes.size()),
                    token.isTextual() ? token.asText() : null,
                    (int) number(node, "doneInPage", 0, Limits.MAX_PAGE_LIMIT),
                    number(node, "pages", 0, Long.MAX_VALUE),
                    number(node, "copied", 0, Long.MAX_VALUE),
                    number(node, "alreadyEqual", 0, Long.MAX_VALUE),
                    number(node, "differing", 0, Long.MAX_VALUE),
                    List.copyOf(sample));
        } catch (InvalidArgumentException e) {
            throw new CopyRefusedException("the target's " + KEY + " is a damaged resume record (" + e.getMessage()
                    + "): remove it only if no copy into this target is under way, then copy into an empty target");
        }
    }

    private static JsonNode array(JsonNode node, String field) {
        JsonNode array = node.path(field);
        if (!array.isArray()) {
            throw damaged(field, array);
        }
        return array;
    }

    private static String text(JsonNode node, String field) {
        if (!node.isTextual()) {
            throw damaged(field, node);
        }
        return node.asText();
    }

    private static long number(JsonNode node, String field, long min, long max) {
        JsonNode number = node.path(field);
        if (!number.canConvertToLong()
                || !number.isIntegralNumber()
                || number.asLong() < min
                || number.asLong() > max) {
            throw damaged(field, number);
        }
        return number.asLong();
    }

    private static InvalidArgumentException damaged(String field, JsonNode found) {
        return new InvalidArgumentException("field " + field + " is " + (found.isMissingNode() ? "missing" : found));
    }

    boolean finished() {
        return prefixIndex >= prefixes.size();
    }

    KeyPrefix prefix() {
        return prefixes.get(prefixIndex);
    }

    /** After {@code written} more entries of the current page, with these totals. */
    ResumeRecord advancedWithinPage(int written, Tally tally) {
        return new ResumeRecord(
                prefixes,
                pageSize,
                prefixIndex,
                token,
                doneInPage + written,
                pages,
                copied + tally.copied,
                alreadyEqual + tally.alreadyEqual,
                differing + tally.differing,
                tally.sampleAfter(differingSample));
    }

    /** After the current page's last entries: the next page starts at {@code next}, or the next prefix if none. */
    ResumeRecord advancedPastPage(@Nullable String next, Tally tally) {
        return new ResumeRecord(
                prefixes,
                pageSize,
                next == null ? prefixIndex + 1 : prefixIndex,
                next,
                0,
                pages + 1,
                copied + tally.copied,
                alreadyEqual + tally.alreadyEqual,
                differing + tally.differing,
                tally.sampleAfter(differingSample));
    }

    /** What one chunk of a page did to the target. */
    static final class Tally {
        long copied;
        long alreadyEqual;
        long differing;
        final List<MetaKey> differingKeys = new ArrayList<>();

        List<MetaKey> sampleAfter(List<MetaKey> earlier) {
            List<MetaKey> sample = new ArrayList<>(earlier);
            for (MetaKey key : differingKeys) {
                if (sample.size() < Verification.SAMPLE_LIMIT) {
                    sample.add(key);
                }
            }
            return List.copyOf(sample);
        }
    }
}
