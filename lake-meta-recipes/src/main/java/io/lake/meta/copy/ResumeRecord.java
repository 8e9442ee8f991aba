package io.lake.meta.copy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.KeyPrefix;
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
record ResumeRecord(List<KeyPrefix> prefixes, int pageSize, int prefixIndex, @Nullable String token, int doneInPage,
        long pages, long copied, long alreadyEqual, long differing, List<MetaKey> differingSample) {

    /** The reserved family: a copy refuses prefixes in it and never copies or verifies it. */
    static final String FAMILY = "lake-meta-copy";
    static final MetaKey KEY = MetaKey.of(FAMILY + "/resume");
    private static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

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
        try {
            JsonNode node = JSON.readTree(value.toByteArray());
            if (node == null || node.path("format").asInt(-1) != FORMAT) {
                throw new CopyRefusedException("the target's " + KEY + " is not a resume record of format " + FORMAT
                        + " (found " + (node == null ? "nothing" : node.path("format")) + "); a newer lake-meta wrote"
                        + " it, or something else did: remove it only if no copy into this target is under way");
            }
            List<KeyPrefix> prefixes = new ArrayList<>();
            node.path("prefixes").forEach(prefix -> prefixes.add(KeyPrefix.of(prefix.asText())));
            List<MetaKey> sample = new ArrayList<>();
            node.path("differingSample").forEach(key -> sample.add(MetaKey.of(key.asText())));
            JsonNode token = node.path("token");
            return new ResumeRecord(List.copyOf(prefixes), node.path("pageSize").asInt(), node.path("prefixIndex").asInt(),
                    token.isTextual() ? token.asText() : null, node.path("doneInPage").asInt(),
                    node.path("pages").asLong(), node.path("copied").asLong(), node.path("alreadyEqual").asLong(),
                    node.path("differing").asLong(), List.copyOf(sample));
        } catch (IOException e) {
            throw new CopyRefusedException("the target's " + KEY + " is not JSON, so not a resume record: " + e.getMessage());
        }
    }

    boolean finished() {
        return prefixIndex >= prefixes.size();
    }

    KeyPrefix prefix() {
        return prefixes.get(prefixIndex);
    }

    /** After {@code written} more entries of the current page, with these totals. */
    ResumeRecord advancedWithinPage(int written, Tally tally) {
        return new ResumeRecord(prefixes, pageSize, prefixIndex, token, doneInPage + written, pages,
                copied + tally.copied, alreadyEqual + tally.alreadyEqual, differing + tally.differing,
                tally.sampleAfter(differingSample));
    }

    /** After the current page's last entries: the next page starts at {@code next}, or the next prefix if none. */
    ResumeRecord advancedPastPage(@Nullable String next, Tally tally) {
        return new ResumeRecord(prefixes, pageSize, next == null ? prefixIndex + 1 : prefixIndex, next, 0, pages + 1,
                copied + tally.copied, alreadyEqual + tally.alreadyEqual, differing + tally.differing,
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
