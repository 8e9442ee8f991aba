package io.lake.meta.dynamo;

import java.util.function.Predicate;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
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
final class RetriesAfterRefusalsOnly implements RetryStrategy {

    /** Replaces the request's retry strategy with the client's, wrapped. */
    static final SdkPlugin PLUGIN = config -> {
        ClientOverrideConfiguration current = config.overrideConfiguration();
        RetryStrategy clients = current.retryStrategy().orElse(null);
        if (clients instanceof RetriesAfterRefusalsOnly) {
            return;
        }
        // The SDK resolves a strategy for every client it builds (a deprecated RetryPolicy included);
        // should a client not say which, sending each write once is the safe reading.
        RetryStrategy restricted = clients == null ? AwsRetryStrategy.doNotRetry() : new RetriesAfterRefusalsOnly(clients);
        config.overrideConfiguration(current.toBuilder().retryStrategy(restricted).build());
    };

    private final RetryStrategy clients;

    RetriesAfterRefusalsOnly(RetryStrategy clients) {
        this.clients = clients;
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
    public AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
        return clients.acquireInitialToken(request);
    }

    @Override
    public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
        if (!provesNothingApplied(request.failure())) {
            throw new TokenAcquisitionFailedException("a conditional single-item write is not sent again after an"
                    + " attempt that may have applied", request.failure());
        }
        return clients.refreshRetryToken(request);
    }

    @Override
    public RecordSuccessResponse recordSuccess(RecordSuccessRequest request) {
        return clients.recordSuccess(request);
    }

    @Override
    public int maxAttempts() {
        return clients.maxAttempts();
    }

    @Override
    public boolean useClientDefaults() {
        return clients.useClientDefaults();
    }

    @Override
    public Builder toBuilder() {
        return new Builder(clients.toBuilder());
    }

    /** The client's builder; what it builds is wrapped again, so a rebuilt strategy keeps the restriction. */
    static final class Builder implements RetryStrategy.Builder<Builder, RetriesAfterRefusalsOnly> {

        private final RetryStrategy.Builder<?, ?> clients;

        Builder(RetryStrategy.Builder<?, ?> clients) {
            this.clients = clients;
        }

        @Override
        public Builder retryOnException(Predicate<Throwable> shouldRetry) {
            clients.retryOnException(shouldRetry);
            return this;
        }

        @Override
        public Builder maxAttempts(int maxAttempts) {
            clients.maxAttempts(maxAttempts);
            return this;
        }

        @Override
        public Builder backoffStrategy(BackoffStrategy backoffStrategy) {
            clients.backoffStrategy(backoffStrategy);
            return this;
        }

        @Override
        public Builder throttlingBackoffStrategy(BackoffStrategy backoffStrategy) {
            clients.throttlingBackoffStrategy(backoffStrategy);
            return this;
        }

        @Override
        public Builder treatAsThrottling(Predicate<Throwable> treatAsThrottling) {
            clients.treatAsThrottling(treatAsThrottling);
            return this;
        }

        @Override
        public Builder useClientDefaults(boolean useClientDefaults) {
            clients.useClientDefaults(useClientDefaults);
            return this;
        }

        @Override
        public RetriesAfterRefusalsOnly build() {
            return new RetriesAfterRefusalsOnly(clients.build());
        }
    }
}
