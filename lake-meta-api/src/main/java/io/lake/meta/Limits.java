package io.lake.meta;

/**
 * The numeric rules of the contract, shared by every backend.
 *
 * @since 0.1.0
 */
public final class Limits {

    /** Largest UTF-8 encoding of a key or prefix: DynamoDB's sort-key limit. */
    public static final int MAX_KEY_BYTES = 1024;

    /** Largest value: 256 KiB. */
    public static final int MAX_VALUE_BYTES = 256 * 1024;

    /** Longest family name. */
    public static final int MAX_FAMILY_LENGTH = 32;

    /** Largest page limit. */
    public static final int MAX_PAGE_LIMIT = 10_000;

    /** Most keys in one batch read ({@link MetaStore#getAll}). */
    public static final int MAX_BATCH_KEYS = 10_000;

    /** Most keys (conditions plus mutations) in one transaction: DynamoDB's limit of items per transaction. */
    public static final int MAX_TRANSACTION_KEYS = 100;

    /**
     * Most bytes of keys and values (expected and new) in one transaction: 2 MiB, so that the
     * request stays under DynamoDB's 4 MB transaction limit once values are base64-encoded.
     */
    public static final int MAX_TRANSACTION_BYTES = 2 * 1024 * 1024;

    private Limits() {}
}
