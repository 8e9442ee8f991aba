package io.lake.meta.cli;

/**
 * The exit codes of every {@code lake-meta} command. Scripts may rely on them; the README lists
 * them too.
 */
public final class ExitCodes {

    /** The command did what was asked. */
    public static final int OK = 0;

    /** {@code get}: the key is absent (with {@code --keys}: one of them is). */
    public static final int NOT_FOUND = 1;

    /**
     * Bad input: unknown option, missing argument, an argument that is not UTF-8 text, invalid
     * key, prefix, value, limit or page token, unknown store scheme, missing store directory or
     * DynamoDB table, a directory that holds no readable lake-meta store, no AWS region or
     * credentials found. Nothing was written.
     */
    public static final int USAGE = 2;

    /**
     * A compare-and-set precondition failed (the key was present, absent or held other bytes), or
     * a {@code txn} did not apply (a condition or precondition failed). Nothing was written.
     */
    public static final int CONFLICT = 3;

    /**
     * The store failed: it could not be opened (held by another process, an I/O error, DynamoDB
     * unreachable or refusing the request), was unavailable (for DynamoDB also: a request still
     * failing after 10 seconds, retries included), or a write's outcome is
     * unknown. Also: {@code dynamo-local} could not start its server (the port is in use).
     */
    public static final int STORE_ERROR = 4;

    /** A bug in lake-meta: the message and stack trace belong in an issue. */
    public static final int INTERNAL_ERROR = 70;

    private ExitCodes() {}
}
