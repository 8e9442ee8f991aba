package io.lake.meta.dynamo;

import io.lake.meta.Ticker;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.http.HttpMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What the SDK's retries did during one call, learned from the SDK's own per-attempt metrics
 * (published synchronously by the sync client before the call returns or throws).
 *
 * <p>The store needs this for one question: could an earlier attempt of a write have applied
 * although its answer does not say so? DynamoDB may apply a write and still answer 500, and a
 * lost response says nothing either. Then a later attempt's "condition failed" may be the
 * store's own write, and a later throttle or transaction conflict speaks for that attempt only.
 */
final class AttemptLog implements MetricPublisher {

    private static final String ATTEMPT = "ApiCallAttempt";
    /** The SDK's error type for an answer with a throttling code (or HTTP 429). */
    private static final String THROTTLING = "Throttling";

    /** One attempt as the SDK's metrics describe it: its error type ("" for success) and HTTP status, if any answer came. */
    private record Attempt(String errorType, @Nullable Integer httpStatus) {

        /**
         * Whether DynamoDB answered this attempt instead of executing it. Of the answers the SDK
         * retries, only throttling (HTTP 4xx with a throttling code) is given instead of
         * executing; 5xx answers, timeouts and lost responses may follow an applied write.
         */
        boolean refusedBeforeExecuting() {
            return THROTTLING.equals(errorType) && httpStatus != null && httpStatus < 500;
        }

        @Override
        public String toString() {
            String status = httpStatus == null ? "no answer" : "HTTP " + httpStatus;
            return errorType.isEmpty() ? status : status + " (" + errorType + ")";
        }
    }

    private final List<Attempt> attempts = new ArrayList<>();
    private boolean published;

    /**
     * Request configuration that attaches this log to one call of {@code client}. Request-level
     * publishers replace the client's own in the SDK, so the client's publishers are attached
     * too: the caller's metrics keep flowing.
     */
    AwsRequestOverrideConfiguration attach(DynamoDbClient client) {
        List<MetricPublisher> publishers = new ArrayList<>(clientPublishers(client));
        publishers.add(this);
        return AwsRequestOverrideConfiguration.builder()
                .metricPublishers(publishers)
                .build();
    }

    /**
     * {@link #attach(DynamoDbClient)} for a conditional single-item write, whose retries are also
     * restricted to those after a refusal ({@link RetriesAfterRefusalsOnly}): it has no idempotency
     * token, so an attempt that may have applied must not be sent again.
     */
    AwsRequestOverrideConfiguration attachToSingleItemWrite(DynamoDbClient client) {
        return attach(client).toBuilder()
                .addPlugin(RetriesAfterRefusalsOnly.PLUGIN)
                .build();
    }

    /**
     * {@link #attach(DynamoDbClient)} for a {@code TransactWriteItems} with a
     * {@code ClientRequestToken}, whose retries stop once the call is older than DynamoDB's memory
     * of the token ({@link TransactionResendWindow}), measured by {@code ticker} from now.
     */
    AwsRequestOverrideConfiguration attachToTransaction(DynamoDbClient client, Ticker ticker) {
        return attach(client).toBuilder()
                .addPlugin(TransactionResendWindow.plugin(ticker))
                .build();
    }

    private static List<MetricPublisher> clientPublishers(DynamoDbClient client) {
        try {
            return client.serviceClientConfiguration().overrideConfiguration().metricPublishers();
        } catch (RuntimeException e) {
            // A client that does not describe its configuration (a test double): nothing to keep.
            return List.of();
        }
    }

    @Override
    public synchronized void publish(MetricCollection call) {
        published = true;
        call.childrenWithName(ATTEMPT).forEach(attempt -> {
            List<String> types = attempt.metricValues(CoreMetric.ERROR_TYPE);
            List<Integer> statuses = attempt.metricValues(HttpMetric.HTTP_STATUS_CODE);
            attempts.add(new Attempt(types.isEmpty() ? "" : types.get(0), statuses.isEmpty() ? null : statuses.get(0)));
        });
    }

    @Override
    public void close() {
        // nothing held
    }

    /**
     * Whether an attempt before the last one may have applied: any attempt that DynamoDB did not
     * refuse before executing (see {@link Attempt#refusedBeforeExecuting()}). Without metrics (a
     * client that publishes none) any retry counts.
     */
    synchronized boolean earlierAttemptMayHaveApplied(SdkException finalError) {
        if (!published || attempts.isEmpty()) {
            Integer n = finalError == null ? null : finalError.numAttempts();
            return n == null || n > 1;
        }
        for (int i = 0; i < attempts.size() - 1; i++) {
            if (!attempts.get(i).refusedBeforeExecuting()) {
                return true;
            }
        }
        return false;
    }

    /** The attempts, for error messages: "[HTTP 500 (ServerError), HTTP 400 (Throttling)]". */
    @Override
    public synchronized String toString() {
        return published ? attempts.toString() : "(no attempt metrics)";
    }
}
