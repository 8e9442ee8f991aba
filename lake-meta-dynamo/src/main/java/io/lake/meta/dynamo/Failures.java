package io.lake.meta.dynamo;

import io.lake.meta.MetaStoreException;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import java.io.IOException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.Crc32MismatchException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

/**
 * Maps what the SDK throws, after its own retries, to the store's exception family.
 *
 * <p>Only answers DynamoDB gives <em>instead of</em> executing a request prove that a write did
 * not apply: throttling (HTTP 4xx with a throttling code), a transaction conflict, a failed
 * condition, a validation error, a missing table. A 5xx answer does not (DynamoDB may apply a
 * write and still answer 500), nor does a lost, timed-out or unreadable response. So:
 *
 * <ul>
 *   <li>reads: throttling, transaction conflicts, 5xx and lost responses →
 *       {@link StoreUnavailableException} (a read changes nothing);</li>
 *   <li>writes: a final 5xx or lost response, or any final failure after an earlier attempt that
 *       may have applied (see {@link AttemptLog}) → {@link OutcomeUnknownException}; throttling and
 *       transaction conflicts on every attempt → {@link StoreUnavailableException}, nothing
 *       applied;</li>
 *   <li>anything else (missing table, permissions, a rejected request, bad client
 *       configuration) → {@link DynamoStoreException}, not retryable.</li>
 * </ul>
 */
final class Failures {

    private Failures() {}

    static MetaStoreException onRead(String what, SdkException e, String table) {
        if (refusedBeforeExecuting(e) || mayHaveExecuted(e)) {
            return new StoreUnavailableException(
                    what + " on table '" + table + "' failed: " + describe(e) + "; retry with backoff", e);
        }
        return permanent(what, e, table);
    }

    static MetaStoreException onWrite(String what, SdkException e, AttemptLog log, String table) {
        if (mayHaveExecuted(e) || log.earlierAttemptMayHaveApplied(e)) {
            return outcomeUnknown(what, e, log, table);
        }
        if (refusedBeforeExecuting(e)) {
            return new StoreUnavailableException(
                    what + " on table '" + table + "' was refused: " + describe(e)
                            + "; nothing was applied; retry with backoff",
                    e);
        }
        return permanent(what, e, table);
    }

    /**
     * A refusal (a failed condition, a cancellation) is conclusive only when no earlier attempt
     * may have applied: otherwise the condition may have failed against this very write, and a
     * conflict or throttle says nothing about that attempt, so the outcome is unknown.
     *
     * @throws OutcomeUnknownException when an earlier attempt may have applied
     */
    static void requireConclusive(String what, SdkException refusal, AttemptLog log, String table) {
        if (log.earlierAttemptMayHaveApplied(refusal)) {
            throw outcomeUnknown(what, refusal, log, table);
        }
    }

    /** The write may have applied: {@code e} is the last attempt's failure, {@code log} tells what the earlier ones did. */
    static OutcomeUnknownException outcomeUnknown(String what, SdkException e, AttemptLog log, String table) {
        String why = mayHaveExecuted(e)
                ? describe(e)
                : "an earlier attempt may have applied (attempts " + log + "), and the last attempt's answer, "
                        + describe(e) + ", speaks only for itself";
        return new OutcomeUnknownException(
                what + " on table '" + table + "' may or may not have applied: " + why
                        + "; re-read the key to learn the outcome before deciding what to do",
                e);
    }

    /** DynamoDB answered instead of executing: nothing was written, and a retry may succeed. */
    private static boolean refusedBeforeExecuting(SdkException e) {
        if (e instanceof AwsServiceException && !(e instanceof TransactionInProgressException)) {
            AwsServiceException s = (AwsServiceException) e;
            return s.statusCode() < 500 && (s.isThrottlingException() || e instanceof TransactionConflictException);
        }
        return false;
    }

    /**
     * The request may have been executed, but the answer does not say so: a 5xx, a lost, timed-out
     * or unreadable response, or a retry that found the same transaction still in progress.
     */
    private static boolean mayHaveExecuted(SdkException e) {
        if (e instanceof AwsServiceException) {
            return ((AwsServiceException) e).statusCode() >= 500 || e instanceof TransactionInProgressException;
        }
        return isAmbiguous(e);
    }

    /** The request may have reached DynamoDB, but no readable answer came back (lost, timed out, unreadable, or the caller was interrupted). */
    private static boolean isAmbiguous(SdkException e) {
        if (!(e instanceof SdkClientException)) {
            return false;
        }
        if (e instanceof ApiCallTimeoutException
                || e instanceof ApiCallAttemptTimeoutException
                || e instanceof Crc32MismatchException
                || e instanceof AbortedException) {
            return true;
        }
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static MetaStoreException permanent(String what, SdkException e, String table) {
        if (e instanceof ResourceNotFoundException) {
            return new DynamoStoreException(
                    what + " failed: table '" + table + "' was not found (it may have been"
                            + " deleted, or the client points at another region or endpoint)",
                    e);
        }
        if (e instanceof SdkClientException) {
            return new DynamoStoreException(
                    what + " on table '" + table + "' failed in the client before DynamoDB" + " answered: "
                            + e.getMessage() + "; check the client's credentials, region and endpoint",
                    e);
        }
        return new DynamoStoreException(
                what + " on table '" + table + "' was rejected by DynamoDB: " + describe(e)
                        + "; check the table, the IAM permissions (see the DynamoDB guide) and the client configuration",
                e);
    }

    static String describe(SdkException e) {
        if (e instanceof AwsServiceException && ((AwsServiceException) e).awsErrorDetails() != null) {
            AwsServiceException s = (AwsServiceException) e;
            return s.awsErrorDetails().errorCode() + " (HTTP " + s.statusCode() + "): "
                    + s.awsErrorDetails().errorMessage();
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }
}
