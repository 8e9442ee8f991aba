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
 * <ul>
 *   <li>throttling, 5xx, transaction conflicts → {@link StoreUnavailableException}: nothing applied;</li>
 *   <li>a lost, timed-out or unreadable response → reads: unavailable; writes:
 *       {@link OutcomeUnknownException}, and so is a final "nothing applied" error that followed
 *       such an attempt, since that attempt may have applied;</li>
 *   <li>anything else (missing table, permissions, a rejected request, bad client
 *       configuration) → {@link DynamoStoreException}, not retryable.</li>
 * </ul>
 */
final class Failures {

    private Failures() {
    }

    static MetaStoreException onRead(String what, SdkException e, String table) {
        if (isNotApplied(e) || isAmbiguous(e)) {
            return new StoreUnavailableException(what + " on table '" + table + "' failed: " + describe(e)
                    + "; retry with backoff", e);
        }
        return permanent(what, e, table);
    }

    static MetaStoreException onWrite(String what, SdkException e, AttemptLog log, String table) {
        if (isAmbiguous(e) || (isNotApplied(e) && log.earlierAttemptAmbiguous(e))) {
            return outcomeUnknown(what, e, table);
        }
        if (isNotApplied(e)) {
            return new StoreUnavailableException(what + " on table '" + table + "' was refused: " + describe(e)
                    + "; nothing was applied; retry with backoff", e);
        }
        return permanent(what, e, table);
    }

    static OutcomeUnknownException outcomeUnknown(String what, SdkException e, String table) {
        return new OutcomeUnknownException(what + " on table '" + table + "' may or may not have applied: "
                + describe(e) + "; re-read the key to learn the outcome before deciding what to do", e);
    }

    /** DynamoDB answered, and the answer says nothing was written and a retry may succeed. */
    private static boolean isNotApplied(SdkException e) {
        if (e instanceof AwsServiceException) {
            AwsServiceException s = (AwsServiceException) e;
            return s.isThrottlingException() || s.statusCode() >= 500
                    || e instanceof TransactionConflictException || e instanceof TransactionInProgressException;
        }
        return false;
    }

    /** The request may have reached DynamoDB, but no readable answer came back (lost, timed out, unreadable, or the caller was interrupted). */
    private static boolean isAmbiguous(SdkException e) {
        if (!(e instanceof SdkClientException)) {
            return false;
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException
                || e instanceof Crc32MismatchException || e instanceof AbortedException) {
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
            return new DynamoStoreException(what + " failed: table '" + table + "' was not found (it may have been"
                    + " deleted, or the client points at another region or endpoint)", e);
        }
        if (e instanceof SdkClientException) {
            return new DynamoStoreException(what + " on table '" + table + "' failed in the client before DynamoDB"
                    + " answered: " + e.getMessage() + "; check the client's credentials, region and endpoint", e);
        }
        return new DynamoStoreException(what + " on table '" + table + "' was rejected by DynamoDB: " + describe(e)
                + "; check the table, the IAM permissions (see the DynamoDB guide) and the client configuration", e);
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
