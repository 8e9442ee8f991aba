package io.lake.meta.reliability;

import io.lake.meta.testserver.dynamodb.fault.ArmedFault;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import io.lake.meta.testserver.dynamodb.fault.FaultPlan;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * The fault plans of the in-process DynamoDB server the suites run under: each plan arms one
 * fault at a time, for the next matching request on one table. Every fault the server knows is in
 * some plan; {@link #EVERYTHING} draws from all of them.
 *
 * <p>Only faults a real DynamoDB may give in any state are armed on a retry: after an attempt that
 * applied, a retry may be refused (throttled, conflicted, 5xx) but never answered with a failed
 * condition the state does not back, which no client could see through.
 */
public enum DynamoFaults {

    /** Throttling and provisioned-throughput refusals (HTTP 400, retried by the SDK, nothing applied). */
    THROTTLING,
    /** Transaction conflicts and throttled cancellations of TransactWriteItems (nothing applied). */
    TRANSACTION_CONFLICT,
    /** HTTP 500 and 503 before anything applied. */
    SERVER_ERRORS,
    /** The request applied, then the connection dropped without an answer. */
    APPLY_THEN_DROP_RESPONSE,
    /** The request applied, then HTTP 500. */
    APPLY_THEN_500,
    /** Requests delayed by 1 to 30 ms, then served. */
    LATENCY,
    /** A connection dropped before the request applied; batch reads with unprocessed keys. */
    DROPS_AND_UNPROCESSED,
    /** Any of the above. */
    EVERYTHING;

    private static final String[] SINGLE_WRITES = {"PutItem", "DeleteItem", "UpdateItem"};
    private static final String[] READS = {"GetItem", "BatchGetItem", "Query"};

    /** Arms one fault of this plan for the next matching request on {@code table}; returns what was armed. */
    public List<ArmedFault> armOne(FaultPlan plan, String table, Random r) {
        DynamoFaults kind = this == EVERYTHING ? values()[r.nextInt(values().length - 1)] : this;
        return kind.faults(r).stream().map(f -> plan.arm(f.onTable(table))).toList();
    }

    private List<Fault> faults(Random r) {
        String write = r.nextInt(3) == 0 ? "TransactWriteItems" : SINGLE_WRITES[r.nextInt(SINGLE_WRITES.length)];
        String any = r.nextBoolean() ? write : READS[r.nextInt(READS.length)];
        switch (this) {
            case THROTTLING:
                return List.of((r.nextBoolean() ? Fault.throttling() : Fault.provisionedThroughputExceeded())
                        .onOperation(any)
                        .onAttempt(1 + r.nextInt(2)));
            case TRANSACTION_CONFLICT:
                return List.of((r.nextBoolean()
                                ? Fault.transactionConflict(r.nextInt(2))
                                : Fault.cancellation(
                                        r.nextInt(2),
                                        r.nextBoolean() ? "ThrottlingError" : "ProvisionedThroughputExceeded"))
                        .onOperation("TransactWriteItems")
                        .onAttempt(1 + r.nextInt(2)));
            case SERVER_ERRORS:
                return List.of((r.nextBoolean() ? Fault.internalServerError() : Fault.serviceUnavailable())
                        .onOperation(any)
                        .onAttempt(1 + r.nextInt(2)));
            case APPLY_THEN_DROP_RESPONSE:
                if (r.nextInt(3) == 0) {
                    // a committed transaction whose answer was lost, then a retry refused instead of executed
                    return List.of(
                            Fault.applyThenDropResponse()
                                    .onOperation("TransactWriteItems")
                                    .onAttempt(1),
                            (r.nextBoolean() ? Fault.transactionConflict(r.nextInt(2)) : Fault.throttling())
                                    .onOperation("TransactWriteItems")
                                    .onAttempt(2));
                }
                return List.of(Fault.applyThenDropResponse().onOperation(write).onAttempt(1));
            case APPLY_THEN_500:
                if (r.nextInt(3) == 0) {
                    // the first attempt applies, every later one is answered 500: the call fails with a 5xx
                    return List.of(
                            Fault.applyThenInternalServerError()
                                    .onOperation(write)
                                    .onAttempt(1),
                            Fault.internalServerError().onOperation(write).onAttempt(2),
                            Fault.internalServerError().onOperation(write).onAttempt(3));
                }
                return List.of(
                        Fault.applyThenInternalServerError().onOperation(write).onAttempt(1));
            case LATENCY:
                return List.of(
                        Fault.latency(Duration.ofMillis(1 + r.nextInt(30))).onOperation(any));
            case DROPS_AND_UNPROCESSED:
                return List.of(
                        r.nextBoolean()
                                ? Fault.dropConnection().onOperation(any).onAttempt(1)
                                : Fault.unprocessed(1 + r.nextInt(2)).onOperation("BatchGetItem"));
            default:
                throw new IllegalStateException("no faults of its own: " + this);
        }
    }
}
