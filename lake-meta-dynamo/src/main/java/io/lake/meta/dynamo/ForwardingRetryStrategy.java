package io.lake.meta.dynamo;

import java.util.function.Function;
import java.util.function.Predicate;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * The client's own retry strategy with one rule of the store's around its retries: everything
 * but {@link #refreshRetryToken} (where the rule goes) is the client's. A rebuilt strategy
 * ({@link #toBuilder()}) is the client's rebuilt, wrapped in the same rule again
 * ({@link #around}), so no SDK setting can shed the rule.
 */
abstract class ForwardingRetryStrategy implements RetryStrategy {

    private final RetryStrategy clients;

    ForwardingRetryStrategy(RetryStrategy clients) {
        this.clients = clients;
    }

    /** The client's strategy, which decides every retry the rule allows. */
    final RetryStrategy clients() {
        return clients;
    }

    /** The same rule (and its state) around {@code rebuilt}, another strategy of the client's. */
    abstract ForwardingRetryStrategy around(RetryStrategy rebuilt);

    /** The rule: refuses a retry, or asks the client's strategy. */
    @Override
    public abstract RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request);

    @Override
    public final AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
        return clients.acquireInitialToken(request);
    }

    @Override
    public final RecordSuccessResponse recordSuccess(RecordSuccessRequest request) {
        return clients.recordSuccess(request);
    }

    @Override
    public final int maxAttempts() {
        return clients.maxAttempts();
    }

    @Override
    public final boolean useClientDefaults() {
        return clients.useClientDefaults();
    }

    @Override
    public final Builder toBuilder() {
        return new Builder(clients.toBuilder(), this::around);
    }

    /** The client's builder; what it builds is wrapped in the rule again. */
    static final class Builder implements RetryStrategy.Builder<Builder, ForwardingRetryStrategy> {

        private final RetryStrategy.Builder<?, ?> clients;
        private final Function<RetryStrategy, ForwardingRetryStrategy> rule;

        Builder(RetryStrategy.Builder<?, ?> clients, Function<RetryStrategy, ForwardingRetryStrategy> rule) {
            this.clients = clients;
            this.rule = rule;
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
        public ForwardingRetryStrategy build() {
            return rule.apply(clients.build());
        }
    }
}
