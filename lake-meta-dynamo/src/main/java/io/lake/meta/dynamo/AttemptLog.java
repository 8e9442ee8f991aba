package io.lake.meta.dynamo;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What the SDK's retries did during one call, learned from the SDK's own per-attempt metrics
 * (published synchronously by the sync client before the call returns or throws).
 *
 * <p>The store needs this for one question: could an earlier attempt of a write have applied
 * although its answer never arrived? Then a later attempt's "condition failed" may be the
 * store's own write, and a final throttling error does not prove that nothing applied.
 */
final class AttemptLog implements MetricPublisher {

    private static final String ATTEMPT = "ApiCallAttempt";

    private final List<String> errorTypes = new ArrayList<>();
    private boolean published;

    /**
     * Request configuration that attaches this log to one call of {@code client}. Request-level
     * publishers replace the client's own in the SDK, so the client's publishers are attached
     * too: the caller's metrics keep flowing.
     */
    AwsRequestOverrideConfiguration attach(DynamoDbClient client) {
        List<MetricPublisher> publishers = new ArrayList<>(clientPublishers(client));
        publishers.add(this);
        return AwsRequestOverrideConfiguration.builder().metricPublishers(publishers).build();
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
            errorTypes.add(types.isEmpty() ? "" : types.get(0));
        });
    }

    @Override
    public void close() {
        // nothing held
    }

    /**
     * Whether an attempt before the last one may have reached DynamoDB without its answer
     * arriving: its response was lost, timed out or unreadable. Throttling and 5xx answers mean
     * nothing applied. Without metrics (a client that publishes none) any retry counts as
     * ambiguous.
     */
    synchronized boolean earlierAttemptAmbiguous(SdkException finalError) {
        if (!published || errorTypes.isEmpty()) {
            Integer attempts = finalError == null ? null : finalError.numAttempts();
            return attempts == null || attempts > 1;
        }
        for (int i = 0; i < errorTypes.size() - 1; i++) {
            if (isAmbiguous(errorTypes.get(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAmbiguous(String errorType) {
        return !"Throttling".equals(errorType) && !"ServerError".equals(errorType);
    }

    synchronized int attempts() {
        return errorTypes.size();
    }
}
