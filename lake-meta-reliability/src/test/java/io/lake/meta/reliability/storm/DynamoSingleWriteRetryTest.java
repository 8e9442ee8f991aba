package io.lake.meta.reliability.storm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.testkit.history.CheckResult;
import io.lake.meta.testkit.history.HistoryRecorder;
import io.lake.meta.testkit.history.LinearizabilityChecker;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A defect this suite found, shown deterministically (no randomness, so no seed): a single-item
 * write (PutItem / DeleteItem with a condition, no idempotency token) that applied and was
 * answered 500 used to be retried by the SDK; when another client put the key back in the state
 * the write expected in between, the retry applied the write a second time and the store answered
 * "applied" — a write applied twice, which no order of the calls explains.
 *
 * <p>Fixed in lake-meta-dynamo: such a write is never sent again after an attempt that may have
 * applied, whatever the client's retry settings (here its own strategy of 3 attempts); the call is
 * an {@link OutcomeUnknownException}. Needs the in-process server (fault injection).
 */
class DynamoSingleWriteRetryTest {

    private static final MetaKey KEY = MetaKey.of("rel/aba");
    private static final MetaValue V = MetaValue.utf8("v");

    @Test
    void aCreateRetriedAfterApplyThen500_acrossSomeoneElsesDelete_appliesOnlyOnce() {
        DynamoDbTestServer server = DynamoStores.requireFaultInjection("single-write-retry");
        AtomicInteger putAttempts =
                new AtomicInteger(-1); // counts from the create on (the layout record is a PutItem too)
        MetaStore[] other = new MetaStore[1];
        HistoryRecorder recorder = new HistoryRecorder();
        ExecutionInterceptor deleteBetweenAttempts = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if ("PutItem".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                        && putAttempts.get() >= 0
                        && putAttempts.incrementAndGet() == 2) {
                    // between the applied first attempt and its retry, another client deletes what it read
                    MetaStore recorded = recorder.recording(other[0]);
                    assertThat(recorded.get(KEY)).contains(V);
                    assertThat(recorded.delete(KEY, V).isApplied()).isTrue();
                }
            }
        };
        try (DynamoDbClient writerClient = DynamoStores.target()
                        .newClient(b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(deleteBetweenAttempts)
                                .retryStrategy(r -> r.maxAttempts(3)
                                        .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(1))))));
                DynamoDbClient otherClient = DynamoStores.target().newClient();
                MetaStore writer = DynamoStores.newStore(writerClient, "aba", 1)) {
            other[0] = DynamoMetaStore.builder()
                    .client(otherClient)
                    .tableName(DynamoStores.tableOf(writer))
                    .build();
            server.faults()
                    .arm(Fault.applyThenInternalServerError()
                            .onOperation("PutItem")
                            .onTable(DynamoStores.tableOf(writer))
                            .onAttempt(1));

            MetaStore recorded = recorder.recording(writer);
            WriteResult created;
            putAttempts.set(0);
            try {
                created = recorded.create(KEY, V);
            } catch (OutcomeUnknownException unknown) {
                created = null; // the right answer: the first attempt may have applied
            }
            recorder.recording(other[0]).get(KEY);

            CheckResult result = new LinearizabilityChecker().check(recorder.history(), Map.of());
            assertThat(result.isLinearizable())
                    .as("create answered " + created + "; the key after someone else's delete: " + other[0].get(KEY)
                            + "\n" + recorder.history() + "\n" + result)
                    .isTrue();
            assertThat(created)
                    .as("the create after an attempt answered 500 cannot know its outcome")
                    .isNull();
            assertThat(putAttempts.get())
                    .as("PutItem attempts of the create: not sent again")
                    .isEqualTo(1);
            other[0].close();
        } finally {
            server.faults().clear();
        }
    }
}
