package io.lake.meta;

/** The numeric rules of the contract, shared by every backend. */
public final class Limits {

    /** Largest UTF-8 encoding of a key or prefix: DynamoDB's sort-key limit. */
    public static final int MAX_KEY_BYTES = 1024;

    /** Largest value: 256 KiB. */
    public static final int MAX_VALUE_BYTES = 256 * 1024;

    /** Longest family name. */
    public static final int MAX_FAMILY_LENGTH = 32;

    /** Largest page limit. */
    public static final int MAX_PAGE_LIMIT = 10_000;

    private Limits() {
    }
}
