package io.lake.meta.dynamo;

import io.lake.meta.Ticker;
import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
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
final class TransactionResendWindow extends ForwardingRetryStrategy {

    static final long WINDOW_MINUTES = 5;

    /** How long after its first attempt a transaction may still be sent again. */
    static final Duration WINDOW = Duration.ofMinutes(WINDOW_MINUTES);

    private final Ticker ticker;
    private final long started;

    private TransactionResendWindow(RetryStrategy clients, Ticker ticker, long started) {
        super(clients);
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
            RetryStrategy bounded = new TransactionResendWindow(
                    clients == null ? AwsRetryStrategy.doNotRetry() : clients, ticker, started);
            config.overrideConfiguration(
                    current.toBuilder().retryStrategy(bounded).build());
        };
    }

    @Override
    TransactionResendWindow around(RetryStrategy rebuilt) {
        return new TransactionResendWindow(rebuilt, ticker, started); // the window still runs from the first attempt
    }

    @Override
    public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
        requireWithinWindow(request, Duration.ZERO);
        RefreshRetryTokenResponse response = clients().refreshRetryToken(request);
        requireWithinWindow(request, response.delay()); // the resend goes out after the backoff
        return response;
    }

    private void requireWithinWindow(RefreshRetryTokenRequest request, Duration delay) {
        long age = ticker.read() - started + delay.toNanos();
        if (age > WINDOW.toNanos()) {
            throw new TokenAcquisitionFailedException(
                    "a transaction is not sent again " + Duration.ofNanos(age).toSeconds()
                            + " s after its first attempt: DynamoDB may have forgotten its ClientRequestToken",
                    request.failure());
        }
    }
}
