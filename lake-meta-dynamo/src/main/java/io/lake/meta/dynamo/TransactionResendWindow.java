package io.lake.meta.dynamo;

import io.lake.meta.lease.Ticker;
import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * The client's own retry strategy for one {@code TransactWriteItems}, minus every resend that
 * would reach DynamoDB after it may have forgotten the call's {@code ClientRequestToken}.
 *
 * <p>Why: DynamoDB remembers a token for 10 minutes. Within them, a resend of a transaction that
 * applied answers success without applying again; after them, it is a new transaction, and one
 * whose conditions another writer made true again (a key deleted and re-created, bytes restored)
 * applies a second time. The client's strategy may resend for longer than that (long backoffs,
 * slow attempts, many of them), and SDK settings are the caller's, so the store measures the call
 * itself, with its own {@link Ticker}: once the first attempt is older than {@link #WINDOW} (half
 * the token's life, leaving the rest for the last backoff, the attempt in flight and the
 * difference between clocks), the call ends with the last attempt's failure, which the store
 * reports as {@link io.lake.meta.OutcomeUnknownException} when any attempt may have applied.
 */
final class TransactionResendWindow implements RetryStrategy {

    static final long WINDOW_MINUTES = 5;

    /** How long after its first attempt a transaction may still be sent again. */
    static final Duration WINDOW = Duration.ofMinutes(WINDOW_MINUTES);

    private final RetryStrategy clients;
    private final Ticker ticker;
    private final long started;

    private TransactionResendWindow(RetryStrategy clients, Ticker ticker, long started) {
        this.clients = clients;
        this.ticker = ticker;
        this.started = started;
    }

    /** Replaces one request's retry strategy with the client's, bounded from now by {@code ticker}. */
    static SdkPlugin plugin(Ticker ticker) {
        long started = ticker.read();
        return config -> {
            ClientOverrideConfiguration current = config.overrideConfiguration();
            RetryStrategy clients = current.retryStrategy().orElse(null);
            if (clients instanceof TransactionResendWindow) {
                return;
            }
            RetryStrategy bounded = new TransactionResendWindow(clients == null ? AwsRetryStrategy.doNotRetry() : clients,
                    ticker, started);
            config.overrideConfiguration(current.toBuilder().retryStrategy(bounded).build());
        };
    }

    @Override
    public AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
        return clients.acquireInitialToken(request);
    }

    @Override
    public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
        requireWithinWindow(request, Duration.ZERO);
        RefreshRetryTokenResponse response = clients.refreshRetryToken(request);
        requireWithinWindow(request, response.delay()); // the resend goes out after the backoff
        return response;
    }

    private void requireWithinWindow(RefreshRetryTokenRequest request, Duration delay) {
        long age = ticker.read() - started + delay.toNanos();
        if (age > WINDOW.toNanos()) {
            throw new TokenAcquisitionFailedException("a transaction is not sent again " + Duration.ofNanos(age).toSeconds()
                    + " s after its first attempt: DynamoDB may have forgotten its ClientRequestToken", request.failure());
        }
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
        return new Builder(clients.toBuilder(), ticker, started);
    }

    /** The client's builder; what it builds is wrapped again, so a rebuilt strategy keeps the window. */
    static final class Builder implements RetryStrategy.Builder<Builder, TransactionResendWindow> {

        private final RetryStrategy.Builder<?, ?> clients;
        private final Ticker ticker;
        private final long started;

        Builder(RetryStrategy.Builder<?, ?> clients, Ticker ticker, long started) {
            this.clients = clients;
            this.ticker = ticker;
            this.started = started;
        }

        @Override
        public Builder retryOnException(java.util.function.Predicate<Throwable> shouldRetry) {
            clients.retryOnException(shouldRetry);
            return this;
        }

        @Override
        public Builder maxAttempts(int maxAttempts) {
            clients.maxAttempts(maxAttempts);
            return this;
        }

        @Override
        public Builder backoffStrategy(software.amazon.awssdk.retries.api.BackoffStrategy backoffStrategy) {
            clients.backoffStrategy(backoffStrategy);
            return this;
        }

        @Override
        public Builder throttlingBackoffStrategy(software.amazon.awssdk.retries.api.BackoffStrategy backoffStrategy) {
            clients.throttlingBackoffStrategy(backoffStrategy);
            return this;
        }

        @Override
        public Builder treatAsThrottling(java.util.function.Predicate<Throwable> treatAsThrottling) {
            clients.treatAsThrottling(treatAsThrottling);
            return this;
        }

        @Override
        public Builder useClientDefaults(boolean useClientDefaults) {
            clients.useClientDefaults(useClientDefaults);
            return this;
        }

        @Override
        public TransactionResendWindow build() {
            return new TransactionResendWindow(clients.build(), ticker, started);
        }
    }
}
