package io.lake.meta.dynamo;

import java.util.List;

/**
 * What verifying the two copies found: every legacy item looked up in the v2 table and every v2
 * item looked up in the legacy table, in bounded pages.
 *
 * @param legacyItems items in the legacy table (internal records excluded)
 * @param v2Items items in the v2 table (internal records excluded)
 * @param legacyDigest the legacy table's content digest: independent of the order items are read
 *     in, the sum modulo 2^256 of SHA-256(key length, key, value) over every item
 * @param v2Digest the v2 table's content digest
 * @param differenceCount how many keys differ, all of them
 * @param differences the first {@value #DIFFERENCES_LISTED} of them
 * @since 0.1.0
 */
public record ParityReport(
        long legacyItems,
        long v2Items,
        String legacyDigest,
        String v2Digest,
        long differenceCount,
        List<Difference> differences) {

    /** How many differing keys a report lists; {@link #differenceCount()} counts them all. */
    public static final int DIFFERENCES_LISTED = 100;

    public ParityReport {
        differences = List.copyOf(differences);
    }

    /** Whether both tables hold exactly the same keys with exactly the same bytes. */
    public boolean clean() {
        return differenceCount == 0 && legacyItems == v2Items && legacyDigest.equals(v2Digest);
    }

    /** How one key differs. */
    public enum Kind {
        /** In the legacy table, not in the v2 table. */
        MISSING_IN_V2,
        /** In the v2 table, not in the legacy table. */
        MISSING_IN_LEGACY,
        /** In both, with different bytes. */
        DIFFERENT_BYTES
    }

    /** One differing key (values are not shown: they may be secret). */
    public record Difference(String key, Kind kind) {}
}
