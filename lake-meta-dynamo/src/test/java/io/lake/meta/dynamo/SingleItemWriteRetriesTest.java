package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A conditional single-item write (PutItem / DeleteItem, no idempotency token) is never sent again
 * after an attempt that may have applied, whatever retry settings the caller's client has: the
 * store restricts the client's strategy per request ({@link RetriesAfterRefusalsOnly}). Retries
 * after refusals, reads' retries and the client's own number of attempts stay as configured.
 * Needs the in-process server's fault injection and request counts.
 */
class SingleItemWriteRetriesTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaKey FRESH = MetaKey.of("tbl/ns1/fresh");
    private static final MetaValue V0 = MetaValue.utf8("v0");
    private static final MetaValue V1 = MetaValue.utf8("v1");

    static Stream<Arguments> clientRetrySettings() {
        return Stream.of(
                Arguments.of("the SDK's default", (Consumer<ClientOverrideConfiguration.Builder>) o -> {}),
                Arguments.of("retryStrategy(maxAttempts 5)", (Consumer<ClientOverrideConfiguration.Builder>)
                        o -> o.retryStrategy(r -> r.maxAttempts(5))),
                Arguments.of("retryStrategy(STANDARD)", (Consumer<ClientOverrideConfiguration.Builder>)
                        o -> o.retryStrategy(RetryMode.STANDARD)),
                Arguments.of("retryStrategy(LEGACY)", (Consumer<ClientOverrideConfiguration.Builder>)
                        o -> o.retryStrategy(RetryMode.LEGACY)),
                Arguments.of("retryStrategy(ADAPTIVE_V2)", (Consumer<ClientOverrideConfiguration.Builder>)
                        o -> o.retryStrategy(RetryMode.ADAPTIVE_V2)),
                Arguments.of("retryPolicy(numRetries 4), the deprecated policy", (Consumer<
                                ClientOverrideConfiguration.Builder>)
                        o -> o.retryPolicy(RetryPolicy.builder().numRetries(4).build())));
    }

    private DynamoDbTestServer server;
    private DynamoTableStore store;
    private String table;

    private void open(Consumer<ClientOverrideConfiguration.Builder> retries) {
        server = TARGET.requireInProcessServer();
        DynamoDbClient client = track(TARGET.newClient(b -> b.overrideConfiguration(retries)));
        store = openNew(client, "retries", null);
        table = tableOf(store);
        store.create(K, V0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientRetrySettings")
    void appliedThen500_isNotSentAgain_andIsOutcomeUnknown(
            String settings, Consumer<ClientOverrideConfiguration.Builder> retries) {
        open(retries);
        server.faults()
                .arm(Fault.applyThenInternalServerError()
                        .onOperation("PutItem")
                        .onTable(table)
                        .onAttempt(1));
        TableStatistics before = server.statistics().table(table);

        assertThatThrownBy(() -> store.create(FRESH, V1))
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("InternalServerError")
                .hasMessageContaining("re-read");

        assertThat(requestsSince(before, server, table))
                .as("one attempt, not re-sent")
                .isEqualTo(Map.of("PutItem", 1L));
        server.faults().clear();
        assertThat(store.get(FRESH)).as("the attempt applied").contains(V1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientRetrySettings")
    void responseLostOrConnectionDropped_isNotSentAgain_andIsOutcomeUnknown(
            String settings, Consumer<ClientOverrideConfiguration.Builder> retries) {
        open(retries);
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("DeleteItem")
                        .onTable(table)
                        .onAttempt(1));
        TableStatistics before = server.statistics().table(table);
        assertThatThrownBy(() -> store.delete(K, V0)).isInstanceOf(OutcomeUnknownException.class);
        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("DeleteItem", 1L));
        server.faults().clear();
        assertThat(store.get(K)).isEmpty();

        // dropped before applying: the client cannot tell the two apart, so neither is re-sent
        server.faults()
                .arm(Fault.dropConnection()
                        .onOperation("PutItem")
                        .onTable(table)
                        .onAttempt(1));
        TableStatistics beforeCreate = server.statistics().table(table);
        assertThatThrownBy(() -> store.create(K, V1)).isInstanceOf(OutcomeUnknownException.class);
        assertThat(requestsSince(beforeCreate, server, table)).isEqualTo(Map.of("PutItem", 1L));
        server.faults().clear();
        assertThat(store.get(K)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientRetrySettings")
    void refusedBeforeExecuting_isStillRetriedByTheClient_andApplies(
            String settings, Consumer<ClientOverrideConfiguration.Builder> retries) {
        open(retries);
        server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onTable(table).times(2));
        TableStatistics before = server.statistics().table(table);
        assertThat(store.update(K, V0, V1)).isEqualTo(WriteResult.applied());
        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("PutItem", 3L));
        assertThat(store.get(K)).contains(V1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientRetrySettings")
    void readsAndTransactions_keepTheClientsRetries(
            String settings, Consumer<ClientOverrideConfiguration.Builder> retries) {
        open(retries);
        server.faults()
                .arm(Fault.internalServerError()
                        .onOperation("GetItem")
                        .onTable(table)
                        .times(1));
        TableStatistics before = server.statistics().table(table);
        assertThat(store.get(K)).contains(V0);
        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("GetItem", 2L));

        server.faults()
                .arm(Fault.applyThenInternalServerError()
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .onAttempt(1));
        TableStatistics beforeGuarded = server.statistics().table(table);
        store.create(MetaKey.of("lease/leader"), V0);
        assertThat(store.applyGuarded(new GuardedMutation(MetaKey.of("lease/leader"), V0, Mutation.update(K, V0, V1)))
                        .isApplied())
                .as("the retry of a committed transaction, same token, is a success")
                .isTrue();
        assertThat(requestsSince(beforeGuarded, server, table)).containsEntry("TransactWriteItems", 2L);
    }

    @Test
    void theClientsNumberOfAttempts_isHonouredForRefusals() {
        open(o -> o.retryStrategy(r -> r.maxAttempts(3)
                .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(1)))
                .throttlingBackoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(1)))));
        server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onTable(table).always());
        TableStatistics before = server.statistics().table(table);
        assertThatThrownBy(() -> store.update(K, V0, V1))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("nothing was applied");
        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("PutItem", 3L));
        server.faults().clear();
        assertThat(store.get(K)).contains(V0);
    }

    @Test
    void anAttemptThatMayHaveAppliedAfterRefusals_endsTheRetries() {
        open(o -> o.retryStrategy(r -> r.maxAttempts(5)
                .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(1)))
                .throttlingBackoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(1)))));
        server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onTable(table).onAttempt(1));
        server.faults()
                .arm(Fault.applyThenInternalServerError()
                        .onOperation("PutItem")
                        .onTable(table)
                        .onAttempt(2));
        TableStatistics before = server.statistics().table(table);
        assertThatThrownBy(() -> store.update(K, V0, V1)).isInstanceOf(OutcomeUnknownException.class);
        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("PutItem", 2L));
        server.faults().clear();
        assertThat(store.get(K)).contains(V1);
    }
}
