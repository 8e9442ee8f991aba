package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Ticker;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A transaction whose first attempt may have applied is not sent again once DynamoDB may have
 * forgotten its {@code ClientRequestToken}: the store measures the call with its own ticker, and
 * past {@link TransactionResendWindow#WINDOW} answers {@link OutcomeUnknownException} instead of a
 * resend that could apply a second time. Within the window the token's resend still proves the
 * outcome. The ticker advances by a fixed step on every reading, so no test waits.
 */
class TransactionResendWindowTest extends DynamoTestSupport {

    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue LEASE = MetaValue.utf8("holder=a;epoch=1");
    private static final MetaValue V0 = MetaValue.utf8("v0");
    private static final MetaValue V1 = MetaValue.utf8("v1");

    /** Reads 0, then {@code step} more on every reading. */
    private static Ticker stepping(Duration step) {
        AtomicLong now = new AtomicLong();
        return () -> now.getAndAdd(step.toNanos());
    }

    private DynamoDbTestServer server;
    private DynamoDbClient client;
    private final String legacy = TARGET.uniqueTableName("window-v1");
    private final String table = TARGET.uniqueTableName("window-v2");

    @BeforeEach
    void server() {
        server = TARGET.requireInProcessServer();
        client = track(TARGET.newClient(b -> b.overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(4)))));
    }

    private MetaStore open(DynamoLayoutMode mode, Ticker ticker) {
        MetaStore store = track(ModeFixture.builder(client, mode, legacy, table, Optional.of(2))
                .ticker(ticker)
                .build());
        store.create(GUARD, LEASE);
        store.create(K, V0);
        return store;
    }

    private void firstAttemptAppliesThenAnswers500(String onTable) {
        server.faults()
                .arm(Fault.applyThenInternalServerError()
                        .onOperation("TransactWriteItems")
                        .onTable(onTable)
                        .onAttempt(1));
    }

    private static Throwable thrownBy(Supplier<?> call) {
        AtomicReference<Object> answer = new AtomicReference<>();
        Throwable thrown = catchThrowable(() -> answer.set(call.get()));
        assertThat(thrown)
                .as(thrown == null ? "the store answered '" + answer.get() + "'" : "the call")
                .isNotNull();
        return thrown;
    }

    @Test
    void v2Transaction_pastTheWindow_isNotResent_andItsOutcomeIsUnknown() {
        MetaStore store = open(DynamoLayoutMode.V2, stepping(Duration.ofMinutes(6)));
        firstAttemptAppliesThenAnswers500(table);

        Throwable thrown = thrownBy(() -> store.transact(
                io.lake.meta.Transaction.of(java.util.List.of(), java.util.List.of(Mutation.update(K, V0, V1)))));

        assertThat(thrown)
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("may or may not have applied");
        assertThat(store.get(K)).as("the first attempt applied").contains(V1);
    }

    @Test
    void guardedMutation_pastTheWindow_isNotResent_andItsOutcomeIsUnknown() {
        MetaStore store = open(DynamoLayoutMode.V2, stepping(Duration.ofMinutes(6)));
        firstAttemptAppliesThenAnswers500(table);

        Throwable thrown =
                thrownBy(() -> store.applyGuarded(new GuardedMutation(GUARD, LEASE, Mutation.update(K, V0, V1))));

        assertThat(thrown).isInstanceOf(OutcomeUnknownException.class);
    }

    @Test
    void dualWrite_pastTheWindow_isNotResent_andItsOutcomeIsUnknown() {
        MetaStore store = open(DynamoLayoutMode.DUAL, stepping(Duration.ofMinutes(6)));
        firstAttemptAppliesThenAnswers500(legacy);

        Throwable thrown = thrownBy(() -> store.update(K, V0, V1));

        assertThat(thrown).isInstanceOf(OutcomeUnknownException.class);
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void withinTheWindow_theTokensResendProvesTheOutcome() {
        MetaStore store = open(DynamoLayoutMode.V2, stepping(Duration.ofMinutes(1)));
        firstAttemptAppliesThenAnswers500(table);

        assertThat(store.applyGuarded(new GuardedMutation(GUARD, LEASE, Mutation.update(K, V0, V1))))
                .isEqualTo(GuardedResult.applied());
        assertThat(store.get(K)).contains(V1);
    }
}
