package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;

/** A strategy rebuilt through {@code toBuilder()} keeps the store's rule and takes the new setting. */
class ForwardingRetryStrategyTest {

    @Test
    void aRebuiltStrategy_isTheClientsRebuilt_wrappedInTheSameRule() {
        RetryStrategy restricted = new RetriesAfterRefusalsOnly(AwsRetryStrategy.standardRetryStrategy());

        RetryStrategy rebuilt = restricted.toBuilder().maxAttempts(7).build();

        assertThat(rebuilt).isInstanceOf(RetriesAfterRefusalsOnly.class);
        assertThat(rebuilt.maxAttempts()).isEqualTo(7);
        assertThat(restricted.maxAttempts()).as("the original is unchanged").isNotEqualTo(7);
    }
}
