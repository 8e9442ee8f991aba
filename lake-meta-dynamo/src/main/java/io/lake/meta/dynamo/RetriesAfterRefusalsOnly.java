package io.lake.meta.dynamo;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

/**
 * The client's own retry strategy, minus every retry that could apply a conditional single-item
 * write twice: after an attempt whose outcome is ambiguous (a 5xx answer, a lost, timed-out or
 * unreadable response), the write is not sent again; the call ends with that attempt's failure,
 * which the store reports as {@link io.lake.meta.OutcomeUnknownException}.
 *
 * <p>Why: {@code PutItem} and {@code DeleteItem} carry no idempotency token. An attempt that
 * applied and was answered 500, re-sent after another client put the key back as the write
 * expected (deleted a created key, restored replaced bytes), applies a second time and answers
 * success — an answer no order of the calls explains. Only a 4xx answer (throttling, clock skew)
 * is given instead of executing, so only after one is a re-send safe; those retries, the number of
 * attempts and the backoff stay the client's.
 *
 * <p>Attached per request ({@link #PLUGIN}, a request-level plugin), so the client the caller
 * built, and its use for anything else, is left as it is. Transactions keep the client's strategy
 * unchanged: their {@code ClientRequestToken} makes a re-send of a committed one a success.
 */
final class RetriesAfterRefusalsOnly extends ForwardingRetryStrategy {

    /** Replaces the request's retry strategy with the client's, wrapped. */
    static final SdkPlugin PLUGIN = config -> {
        ClientOverrideConfiguration current = config.overrideConfiguration();
        RetryStrategy clients = current.retryStrategy().orElse(null);
        if (clients instanceof RetriesAfterRefusalsOnly) {
            return;
        }
        // The SDK resolves a strategy for every client it builds (a deprecated RetryPolicy included);
        // should a client not say which, sending each write once is the safe reading.
        RetryStrategy restricted =
                clients == null ? AwsRetryStrategy.doNotRetry() : new RetriesAfterRefusalsOnly(clients);
        config.overrideConfiguration(
                current.toBuilder().retryStrategy(restricted).build());
    };

    RetriesAfterRefusalsOnly(RetryStrategy clients) {
        super(clients);
    }

    /**
     * Whether {@code failure} proves the attempt did not apply: DynamoDB answered with a 4xx
     * instead of executing it. {@code TransactionInProgressException} (400) is the exception: it
     * says an earlier attempt is still being applied.
     */
    static boolean provesNothingApplied(Throwable failure) {
        return failure instanceof AwsServiceException
                && ((AwsServiceException) failure).statusCode() < 500
                && ((AwsServiceException) failure).statusCode() >= 400
                && !(failure instanceof TransactionInProgressException);
    }

    @Override
    RetriesAfterRefusalsOnly around(RetryStrategy rebuilt) {
        return new RetriesAfterRefusalsOnly(rebuilt);
    }

    @Override
    public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
        if (!provesNothingApplied(request.failure())) {
            throw new TokenAcquisitionFailedException(
                    "a conditional single-item write is not sent again after an" + " attempt that may have applied",
                    request.failure());
        }
        return clients().refreshRetryToken(request);
    }
}
