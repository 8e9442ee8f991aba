package io.lake.meta.testserver.dynamodb.fault;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One fault to inject, and which requests it hits. Immutable: each {@code on...}/{@code times}
 * call returns a copy. By default a fault hits the next matching request once; it matches every
 * operation, table and attempt unless narrowed.
 *
 * <pre>{@code
 * server.faults().arm(Fault.provisionedThroughputExceeded().onOperation("PutItem").onTable("t").times(2));
 * server.faults().arm(Fault.applyThenDropResponse().onOperation("TransactWriteItems").onAttempt(1));
 * }</pre>
 *
 * @since 0.1.0
 */
public final class Fault {

    /** What the server does instead of (or besides) answering normally. */
    public enum Kind {
        /** HTTP 400 {@code ProvisionedThroughputExceededException}; the SDK retries it. */
        PROVISIONED_THROUGHPUT_EXCEEDED,
        /** HTTP 400 {@code ThrottlingException}; the SDK retries it. */
        THROTTLING,
        /**
         * A transaction conflict: {@code TransactionCanceledException} with reason
         * {@code TransactionConflict} for TransactWriteItems and TransactGetItems,
         * {@code TransactionConflictException} for any other operation. Nothing is applied.
         */
        TRANSACTION_CONFLICT,
        /** HTTP 500 {@code InternalServerError}, nothing applied; the SDK retries it. */
        INTERNAL_SERVER_ERROR,
        /** HTTP 503, nothing applied; the SDK retries it. */
        SERVICE_UNAVAILABLE,
        /** The connection is closed before the request is applied, without any response. */
        DROP_CONNECTION,
        /** The request is applied, then the connection is closed without any response. */
        APPLY_THEN_DROP_RESPONSE,
        /** The request is applied, then answered with HTTP 500 InternalServerError. */
        APPLY_THEN_INTERNAL_SERVER_ERROR,
        /**
         * TransactWriteItems / TransactGetItems only: {@code TransactionCanceledException} with the
         * given cancellation reason code on one action (other actions {@code None}); nothing is
         * applied. Known codes get DynamoDB's message; any other code is sent as is, so a client's
         * handling of unknown reasons can be tested.
         */
        CANCELLATION,
        /**
         * BatchWriteItem / BatchGetItem only: the last {@code count} requests (or keys) of the batch
         * are not processed and come back in {@code UnprocessedItems} / {@code UnprocessedKeys}, as
         * DynamoDB does under throttling; the rest are processed normally.
         */
        UNPROCESSED,
        /** The request waits for the given latency, then proceeds normally (or meets another fault). */
        LATENCY
    }

    private final Kind kind;
    private final @Nullable String operation; // null: any
    private final @Nullable String table; // null: any
    private final int attempt;
    private final int times;
    private final Duration latency;
    private final int conflictingAction;
    private final @Nullable String reasonCode;

    private Fault(
            Kind kind,
            @Nullable String operation,
            @Nullable String table,
            int attempt,
            int times,
            Duration latency,
            int conflictingAction) {
        this(kind, operation, table, attempt, times, latency, conflictingAction, null);
    }

    private Fault(
            Kind kind,
            @Nullable String operation,
            @Nullable String table,
            int attempt,
            int times,
            Duration latency,
            int conflictingAction,
            @Nullable String reasonCode) {
        this.kind = kind;
        this.operation = operation;
        this.table = table;
        this.attempt = attempt;
        this.times = times;
        this.latency = latency;
        this.conflictingAction = conflictingAction;
        this.reasonCode = reasonCode;
    }

    private static Fault of(Kind kind) {
        return new Fault(kind, null, null, 0, 1, Duration.ZERO, 0);
    }

    /** A {@code ProvisionedThroughputExceededException}, which the SDK retries. */
    public static Fault provisionedThroughputExceeded() {
        return of(Kind.PROVISIONED_THROUGHPUT_EXCEEDED);
    }

    /** A {@code ThrottlingException}, which the SDK retries. */
    public static Fault throttling() {
        return of(Kind.THROTTLING);
    }

    /** A transaction conflict on the first action of a transaction. */
    public static Fault transactionConflict() {
        return of(Kind.TRANSACTION_CONFLICT);
    }

    /** A transaction conflict on the given (zero-based) action of a transaction. */
    public static Fault transactionConflict(int actionIndex) {
        if (actionIndex < 0) {
            throw new IllegalArgumentException("actionIndex must be >= 0, was " + actionIndex);
        }
        return new Fault(Kind.TRANSACTION_CONFLICT, null, null, 0, 1, Duration.ZERO, actionIndex);
    }

    /** A 500 {@code InternalServerError}, the request not applied. */
    public static Fault internalServerError() {
        return of(Kind.INTERNAL_SERVER_ERROR);
    }

    /** A 503 {@code ServiceUnavailable}, the request not applied. */
    public static Fault serviceUnavailable() {
        return of(Kind.SERVICE_UNAVAILABLE);
    }

    /** The connection closed before the request applies, with no response. */
    public static Fault dropConnection() {
        return of(Kind.DROP_CONNECTION);
    }

    /** The request applies, then the connection closes without a response. */
    public static Fault applyThenDropResponse() {
        return of(Kind.APPLY_THEN_DROP_RESPONSE);
    }

    /** The request applies, then the server answers 500. */
    public static Fault applyThenInternalServerError() {
        return of(Kind.APPLY_THEN_INTERNAL_SERVER_ERROR);
    }

    /**
     * A transaction cancellation with reason {@code code} (such as {@code "ThrottlingError"},
     * {@code "ProvisionedThroughputExceeded"}, {@code "TransactionConflict"} or an invented code) on
     * the given (zero-based) action; only transactions are hit.
     */
    public static Fault cancellation(int actionIndex, String code) {
        Objects.requireNonNull(code, "code");
        if (actionIndex < 0) {
            throw new IllegalArgumentException("actionIndex must be >= 0, was " + actionIndex);
        }
        return new Fault(Kind.CANCELLATION, null, null, 0, 1, Duration.ZERO, actionIndex, code);
    }

    /** The last {@code count} requests or keys of a batch come back unprocessed; only batches are hit. */
    public static Fault unprocessed(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, was " + count);
        }
        return new Fault(Kind.UNPROCESSED, null, null, 0, 1, Duration.ZERO, count, null);
    }

    /** Waits {@code latency} before handling the request; latencies add up. */
    public static Fault latency(Duration latency) {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative, was " + latency);
        }
        return new Fault(Kind.LATENCY, null, null, 0, 1, latency, 0);
    }

    /** Only requests of this operation, such as {@code "PutItem"}. */
    public Fault onOperation(String operation) {
        return new Fault(
                kind,
                Objects.requireNonNull(operation, "operation"),
                table,
                attempt,
                times,
                latency,
                conflictingAction,
                reasonCode);
    }

    /** Only requests that name this table. */
    public Fault onTable(String table) {
        return new Fault(
                kind,
                operation,
                Objects.requireNonNull(table, "table"),
                attempt,
                times,
                latency,
                conflictingAction,
                reasonCode);
    }

    /**
     * Only this attempt of an SDK call (1 = the first try), read from the SDK's
     * {@code amz-sdk-request: attempt=N} header; requests without the header count as attempt 1.
     */
    public Fault onAttempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
        }
        return new Fault(kind, operation, table, attempt, times, latency, conflictingAction, reasonCode);
    }

    /** Hit this many matching requests, then disarm. */
    public Fault times(int times) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be >= 1, was " + times);
        }
        return new Fault(kind, operation, table, attempt, times, latency, conflictingAction, reasonCode);
    }

    /** Hit every matching request until the plan is cleared. */
    public Fault always() {
        return new Fault(kind, operation, table, attempt, Integer.MAX_VALUE, latency, conflictingAction, reasonCode);
    }

    /** What the fault does. */
    public Kind kind() {
        return kind;
    }

    /** The delay of a latency fault (zero for the other kinds). */
    public Duration latency() {
        return latency;
    }

    /**
     * The zero-based transaction action a conflict or cancellation names; for
     * {@link Kind#UNPROCESSED}, how many requests are left unprocessed.
     */
    public int conflictingAction() {
        return conflictingAction;
    }

    /** The cancellation reason code of a {@link Kind#CANCELLATION} fault, else null. */
    public @Nullable String reasonCode() {
        return reasonCode;
    }

    int times() {
        return times;
    }

    boolean matches(String op, java.util.Set<String> tables, int attemptNumber) {
        if (kind == Kind.CANCELLATION && !op.equals("TransactWriteItems") && !op.equals("TransactGetItems")) {
            return false;
        }
        if (kind == Kind.UNPROCESSED && !op.equals("BatchWriteItem") && !op.equals("BatchGetItem")) {
            return false;
        }
        return (operation == null || operation.equals(op))
                && (table == null || tables.contains(table))
                && (attempt == 0 || attempt == attemptNumber);
    }

    @Override
    public String toString() {
        return "Fault[" + kind + (operation == null ? "" : " op=" + operation)
                + (table == null ? "" : " table=" + table)
                + (attempt == 0 ? "" : " attempt=" + attempt)
                + (times == Integer.MAX_VALUE ? " always" : " times=" + times)
                + (kind == Kind.LATENCY ? " latency=" + latency : "")
                + (kind == Kind.CANCELLATION ? " action=" + conflictingAction + " code=" + reasonCode : "") + "]";
    }
}
