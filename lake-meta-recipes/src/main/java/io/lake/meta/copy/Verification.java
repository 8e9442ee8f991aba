package io.lake.meta.copy;

import io.lake.meta.MetaKey;
import java.util.List;

/**
 * The exact comparison of the copied prefixes in the source and the target, both ways: every key
 * of one must be in the other with the same bytes, checked by reading each side page by page and
 * looking the page's keys up in the other. Each side's content digest is the SHA-256 of the entry
 * count and the sum modulo 2^256 of every entry's SHA-256 (per entry: the key's UTF-8 length as 4
 * bytes big-endian, the key, the value's length, the value): independent of the order a backend
 * pages in (DynamoDB pages shard by shard), so equal stores give equal digests on any backends and
 * a digest printed on one day can be compared with one printed later. The keys and values are
 * compared exactly; the digest is the short form to record. The copy's resume record is never part of it.
 *
 * <p>The source is read twice, during the comparison and once more after it; a source whose
 * digest changed between the two reads had a writer ({@link #sourceStable()} is false), and the
 * verification is not equal however the comparison came out.
 *
 * @param sourceKeys keys under the prefixes in the source
 * @param targetKeys keys under the prefixes in the target
 * @param sourceDigest hex SHA-256 of the source's entries
 * @param targetDigest hex SHA-256 of the target's entries
 * @param missingInTarget source keys the target lacks
 * @param extraInTarget target keys the source lacks
 * @param valueDiffers keys both hold with different values
 * @param sourceStable whether a second read of the source gave the same digest
 * @param sample the first differences found, at most {@link #SAMPLE_LIMIT}
 * @since 0.1.0
 */
public record Verification(
        long sourceKeys,
        long targetKeys,
        String sourceDigest,
        String targetDigest,
        long missingInTarget,
        long extraInTarget,
        long valueDiffers,
        boolean sourceStable,
        List<Difference> sample) {

    /** How many differences a verification lists by key. */
    public static final int SAMPLE_LIMIT = 20;

    public Verification {
        sample = List.copyOf(sample);
    }

    /** True when both stores hold exactly the same keys and values and the source did not change meanwhile. */
    public boolean equal() {
        return sourceStable
                && missingInTarget == 0
                && extraInTarget == 0
                && valueDiffers == 0
                && sourceDigest.equals(targetDigest);
    }

    /**
     * One key the two stores disagree on.
     *
     * @since 0.1.0
     */
    public record Difference(MetaKey key, Kind kind) {}

    /**
     * How the stores disagree on a key.
     *
     * @since 0.1.0
     */
    public enum Kind {
        /** The source holds the key, the target does not. */
        MISSING_IN_TARGET,
        /** The target holds the key, the source does not. */
        EXTRA_IN_TARGET,
        /** Both hold the key with different bytes. */
        VALUE_DIFFERS
    }
}
