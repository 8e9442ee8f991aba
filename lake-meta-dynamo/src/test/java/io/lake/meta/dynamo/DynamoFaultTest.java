package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Faults injected by the in-process server, seen through the real SDK and its own retries (4
 * attempts here, to keep storms short; the default DynamoDB policy makes 9).
 */
class DynamoFaultTest extends DynamoTestSupport {

    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue LEASE = MetaValue.utf8("holder=a;epoch=1");
    private static final MetaValue V0 = MetaValue.utf8("v0");
    private static final MetaValue V1 = MetaValue.utf8("v1");

    /** Records what went over the wire: the body of every attempt. */
    static final class WireLog implements ExecutionInterceptor {
        final List<String> bodies = new CopyOnWriteArrayList<>();

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            context.requestBody().ifPresent(body -> {
                try (InputStream in = body.contentStreamProvider().newStream()) {
                    bodies.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        List<String> tokens() {
            Pattern token = Pattern.compile("\"ClientRequestToken\":\"([^\"]+)\"");
            return bodies.stream()
                    .map(token::matcher)
                    .filter(Matcher::find)
                    .map(m -> m.group(1))
                    .toList();
        }
    }

    private DynamoDbTestServer server;
    private final WireLog wire = new WireLog();
    private DynamoTableStore store;
    private String table;

    @BeforeEach
    void openOnTheInProcessServer() {
        server = TARGET.requireInProcessServer();
        DynamoDbClient client = track(TARGET.newClient(b -> b.overrideConfiguration(
                o -> o.retryStrategy(r -> r.maxAttempts(4)).addExecutionInterceptor(wire))));
        store = openNew(client, "faults", null);
        table = tableOf(store);
        store.create(GUARD, LEASE);
        store.create(K, V0);
        wire.bodies.clear();
    }

    private GuardedResult guardedUpdate() {
        return store.applyGuarded(new GuardedMutation(GUARD, LEASE, Mutation.update(K, V0, V1)));
    }

    private void assertNothingChanged() {
        server.faults().clear();
        assertThat(store.get(GUARD)).contains(LEASE);
        assertThat(store.get(K)).contains(V0);
    }

    @Test
    void throttledThenSucceeding_appliesOnce() {
        server.faults()
                .arm(Fault.provisionedThroughputExceeded()
                        .onOperation("PutItem")
                        .onTable(table)
                        .times(2));
        TableStatistics before = server.statistics().table(table);

        assertThat(store.update(K, V0, V1)).isEqualTo(WriteResult.applied());

        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("PutItem", 3L));
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void throttledGuardedWriteThenSucceeding_isApplied() {
        server.faults()
                .arm(Fault.throttling()
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .times(1));
        assertThat(guardedUpdate()).isEqualTo(GuardedResult.applied());
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void throttledPageThenSucceeding_returnsThePage() {
        server.faults()
                .arm(Fault.provisionedThroughputExceeded()
                        .onOperation("Query")
                        .onTable(table)
                        .times(3));
        assertThat(store.page(KeyPrefix.of("tbl/ns1/"), 10).entries())
                .extracting(Entry::key)
                .contains(K);
    }

    @Test
    void transactionConflict_isRetryableUnavailable_andAppliesNothing() {
        server.faults()
                .arm(Fault.transactionConflict(1)
                        .onOperation("TransactWriteItems")
                        .onTable(table));
        assertThatThrownBy(this::guardedUpdate)
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("TransactionConflict")
                .satisfies(e -> assertThat(((MetaStoreException) e).retryable()).isTrue());
        assertNothingChanged();
        assertThat(guardedUpdate()).as("the caller's retry").isEqualTo(GuardedResult.applied());
    }

    @Test
    void transactionConflictOnASingleItemWrite_isRetryableUnavailable() {
        server.faults().arm(Fault.transactionConflict().onOperation("PutItem").onTable(table));
        assertThatThrownBy(() -> store.update(K, V0, V1)).isInstanceOf(StoreUnavailableException.class);
        assertNothingChanged();
    }

    @Test
    void guardedResponseLostAfterCommit_sdkRetryWithTheSameToken_reportsApplied() {
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .onAttempt(1));
        TableStatistics before = server.statistics().table(table);

        assertThat(guardedUpdate()).as("applied, not a false conflict").isEqualTo(GuardedResult.applied());

        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("TransactWriteItems", 2L));
        List<String> tokens = wire.tokens();
        assertThat(tokens).as("ClientRequestToken on each attempt, as sent").hasSize(2);
        assertThat(tokens.get(0)).hasSize(36).isEqualTo(tokens.get(1));
        assertThat(wire.bodies.get(0)).as("the SDK resends the same body").isEqualTo(wire.bodies.get(1));
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void singleItemResponseLostAfterCommit_isOutcomeUnknown_neverAFalseConflict() {
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("PutItem")
                        .onTable(table)
                        .onAttempt(1));

        assertThatThrownBy(() -> store.update(K, V0, V1))
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("re-read");
        assertThat(store.get(K)).as("the first attempt applied").contains(V1);
    }

    @Test
    void connectionDroppedBeforeApplying_isOutcomeUnknown_notSentAgain() {
        // A dropped connection looks the same whether or not the write applied, and a single-item
        // write has no token to make a re-send safe: it is not sent again.
        server.faults()
                .arm(Fault.dropConnection()
                        .onOperation("PutItem")
                        .onTable(table)
                        .onAttempt(1));
        TableStatistics before = server.statistics().table(table);
        assertThatThrownBy(() -> store.update(K, V0, V1)).isInstanceOf(OutcomeUnknownException.class);
        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("PutItem", 1L));
        assertNothingChanged();
    }

    @Test
    void everyResponseLost_onAWrite_isOutcomeUnknown_onARead_unavailable() {
        server.faults().arm(Fault.dropConnection().onTable(table).always());
        assertThatThrownBy(() -> store.update(K, V0, V1)).isInstanceOf(OutcomeUnknownException.class);
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(OutcomeUnknownException.class);
        assertThatThrownBy(() -> store.get(K)).isInstanceOf(StoreUnavailableException.class);
        assertThatThrownBy(() -> store.page(KeyPrefix.of("tbl/"), 5)).isInstanceOf(StoreUnavailableException.class);
        assertNothingChanged();
    }

    @Test
    void serverErrorStorm_writesAreOutcomeUnknown_readsUnavailable_andNothingIsHalfApplied() {
        // This server applied nothing, but a 500 cannot prove that: DynamoDB may apply, then answer 500.
        server.faults().arm(Fault.internalServerError().onTable(table).always());
        TableStatistics before = server.statistics().table(table);

        assertThatThrownBy(this::guardedUpdate)
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("InternalServerError")
                .hasMessageContaining("may or may not have applied");
        assertThatThrownBy(() -> store.update(K, V0, V1)).isInstanceOf(OutcomeUnknownException.class);
        assertThatThrownBy(() -> store.get(K)).isInstanceOf(StoreUnavailableException.class);

        assertThat(requestsSince(before, server, table))
                .as("the SDK's own retries, no loop of ours on top; a single-item write is not sent again after a 500")
                .isEqualTo(Map.of("TransactWriteItems", 4L, "PutItem", 1L, "GetItem", 4L));
        assertNothingChanged();
    }

    @Test
    void serviceUnavailableStorm_onAWrite_isOutcomeUnknown_onARead_unavailable() {
        server.faults().arm(Fault.serviceUnavailable().onTable(table).always());
        assertThatThrownBy(() -> store.delete(K, V0))
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("HTTP 503");
        assertThatThrownBy(() -> store.get(K)).isInstanceOf(StoreUnavailableException.class);
        assertNothingChanged();
    }

    @Test
    void throttlingStorm_isUnavailable() {
        server.faults().arm(Fault.throttling().onTable(table).always());
        assertThatThrownBy(() -> store.create(MetaKey.of("tbl/new"), V0)).isInstanceOf(StoreUnavailableException.class);
        server.faults().clear();
        assertThat(store.get(MetaKey.of("tbl/new"))).isEmpty();
    }

    @Test
    void lostResponseThenThrottled_isOutcomeUnknown_notUnavailable() {
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("PutItem")
                        .onTable(table)
                        .onAttempt(1));
        server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onTable(table).always());
        assertThatThrownBy(() -> store.update(K, V0, V1))
                .as("the first attempt may have applied; a final throttle does not prove otherwise")
                .isInstanceOf(OutcomeUnknownException.class);
        server.faults().clear();
        assertThat(store.get(K)).contains(V1);
    }
}
