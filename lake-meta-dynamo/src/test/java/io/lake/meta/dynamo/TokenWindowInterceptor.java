package io.lake.meta.dynamo;

import io.lake.meta.testkit.lease.ManualClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Moves a manual clock between an SDK call's first attempt and its retry, once armed: the retry
 * then reaches DynamoDB after it forgot the first attempt's {@code ClientRequestToken} (10 minutes).
 * The attempt number is the SDK's own {@code amz-sdk-request: attempt=N} header.
 */
final class TokenWindowInterceptor implements ExecutionInterceptor {

    private record Armed(ManualClock clock, Duration by) {}

    private final AtomicReference<Armed> armed = new AtomicReference<>();

    void armAdvance(ManualClock clock, Duration by) {
        armed.set(new Armed(clock, by));
    }

    void disarm() {
        armed.set(null);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        String header =
                context.httpRequest().firstMatchingHeader("amz-sdk-request").orElse("");
        if (!header.contains("attempt=1;") && !header.endsWith("attempt=1") && header.contains("attempt=")) {
            Armed a = armed.getAndSet(null);
            if (a != null) {
                a.clock().advance(a.by());
            }
        }
    }
}
