package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

@SuppressWarnings("unchecked") // the SDK's builder methods take generic varargs
class LifecycleAndConcurrencyTest extends ServerTestSupport {

    @Test
    void restart_keepsPortTablesAndItems() {
        try (DynamoDbTestServer own = DynamoDbTestServer.create().start();
                DynamoDbClient c = newClient(own)) {
            c.createTable(r -> r.tableName("kept")
                    .billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH")));
            c.putItem(r -> r.tableName("kept").item(key("a")));
            int port = own.port();
            own.restart();
            assertThat(own.port()).isEqualTo(port);
            assertThat(c.getItem(r -> r.tableName("kept").key(key("a"))).hasItem())
                    .isTrue();
        }
    }

    @Test
    void stop_refusesConnectionsUntilStartedAgain() {
        try (DynamoDbTestServer own = DynamoDbTestServer.create().start();
                DynamoDbClient c = newClient(own)) {
            own.stop();
            assertThat(own.isRunning()).isFalse();
            assertThatThrownBy(own::endpoint).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> c.listTables()).isInstanceOf(SdkClientException.class);
            own.start();
            assertThat(c.listTables().tableNames()).isEmpty();
        }
    }

    @Test
    void startTwice_andStartAfterClose_areErrors() {
        DynamoDbTestServer own = DynamoDbTestServer.create().start();
        assertThatThrownBy(own::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already running");
        own.close();
        own.close();
        assertThatThrownBy(own::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void builder_rejectsBadPort() {
        assertThatThrownBy(() -> DynamoDbTestServer.builder().port(70000)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reset_dropsEverything() {
        createTable("temp", null);
        server.reset();
        assertThat(client.listTables().tableNames()).isEmpty();
    }

    @Test
    void concurrentConditionalCreates_exactlyOneWins() throws Exception {
        createTable("race", null);
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch go = new CountDownLatch(1);
            AtomicInteger wins = new AtomicInteger();
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String writer = "w" + i;
                futures.add(pool.submit(() -> {
                    go.await();
                    try {
                        client.putItem(r -> r.tableName("race")
                                .item(Map.of("pk", s("k"), "by", s(writer)))
                                .conditionExpression("attribute_not_exists(pk)"));
                        wins.incrementAndGet();
                    } catch (ConditionalCheckFailedException lost) {
                        // expected for all but one
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
            assertThat(wins.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentIncrements_loseNothing() throws Exception {
        createTable("ctr", null);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                futures.add(pool.submit(() -> {
                    for (int j = 0; j < 25; j++) {
                        client.updateItem(r -> r.tableName("ctr")
                                .key(key("c"))
                                .updateExpression("ADD n :one")
                                .expressionAttributeValues(Map.of(":one", n("1"))));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            assertThat(client.getItem(r -> r.tableName("ctr").key(key("c")))
                            .item()
                            .get("n")
                            .n())
                    .isEqualTo("150");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void writeCheckedHook_receivesOperationAndTables() {
        createTable("ctx_a", null);
        createTable("ctx_b", null);
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        server.hooks(new ServerHooks() {
            @Override
            public void reached(String point) {
                seen.add(point);
            }

            @Override
            public void reached(String point, String operation, java.util.Set<String> tables) {
                seen.add(point + " " + operation + " " + new java.util.TreeSet<>(tables));
            }
        });
        client.putItem(r -> r.tableName("ctx_a").item(key("x")));
        client.transactWriteItems(r -> r.transactItems(
                software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                        .put(p -> p.tableName("ctx_b").item(key("y")))
                        .build(),
                software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                        .delete(d -> d.tableName("ctx_a").key(key("x")))
                        .build()));
        assertThat(seen)
                .containsExactly(
                        ServerHooks.WRITE_CHECKED + " PutItem [ctx_a]",
                        ServerHooks.WRITE_CHECKED + " TransactWriteItems [ctx_a, ctx_b]",
                        ServerHooks.TRANSACTION_APPLYING + " TransactWriteItems [ctx_a, ctx_b]");
    }

    @Test
    void concurrentGuardedTransactions_applyExactlyTheSuccessfulOnes() throws Exception {
        createTable("guarded", null);
        client.putItem(r -> r.tableName("guarded").item(Map.of("pk", s("lease"), "epoch", n("1"))));
        client.putItem(r -> r.tableName("guarded").item(Map.of("pk", s("ctr"), "v", n("0"))));
        AtomicInteger applied = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                futures.add(pool.submit(() -> {
                    for (int j = 0; j < 15; j++) {
                        String current = client.getItem(r ->
                                        r.tableName("guarded").key(key("ctr")).consistentRead(true))
                                .item()
                                .get("v")
                                .n();
                        String next = Integer.toString(Integer.parseInt(current) + 1);
                        try {
                            client.transactWriteItems(r -> r.transactItems(
                                    software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                                            .conditionCheck(c -> c.tableName("guarded")
                                                    .key(key("lease"))
                                                    .conditionExpression("epoch = :e")
                                                    .expressionAttributeValues(Map.of(":e", n("1"))))
                                            .build(),
                                    software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                                            .update(u -> u.tableName("guarded")
                                                    .key(key("ctr"))
                                                    .updateExpression("SET v = :next")
                                                    .conditionExpression("v = :current")
                                                    .expressionAttributeValues(
                                                            Map.of(":next", n(next), ":current", n(current))))
                                            .build()));
                            applied.incrementAndGet();
                        } catch (software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException conflict) {
                            assertThat(conflict.cancellationReasons().get(1).code())
                                    .isEqualTo("ConditionalCheckFailed");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(client.getItem(r -> r.tableName("guarded").key(key("ctr")))
                        .item()
                        .get("v")
                        .n())
                .isEqualTo(Integer.toString(applied.get()));
        assertThat(applied.get()).isPositive();
    }

    @Test
    void writeCheckedHook_pausesAWriteBeforeItIsVisible() throws Exception {
        createTable("hooked", null);
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        List<String> points = new java.util.concurrent.CopyOnWriteArrayList<>();
        server.hooks(point -> {
            points.add(point);
            if (first.compareAndSet(true, false)) {
                reached.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> paused = pool.submit(() -> client.putItem(r -> r.tableName("hooked")
                    .item(Map.of("pk", s("k"), "by", s("A")))
                    .conditionExpression("attribute_not_exists(pk)")));
            reached.await();
            // reads still run and do not see the paused write
            assertThat(client.getItem(r -> r.tableName("hooked").key(key("k")).consistentRead(true))
                            .hasItem())
                    .isFalse();
            Future<?> second = pool.submit(() -> client.putItem(r -> r.tableName("hooked")
                    .item(Map.of("pk", s("k"), "by", s("B")))
                    .conditionExpression("attribute_not_exists(pk)")));
            release.countDown();
            paused.get();
            assertThatThrownBy(second::get).hasCauseInstanceOf(ConditionalCheckFailedException.class);
            assertThat(client.getItem(r -> r.tableName("hooked").key(key("k")))
                            .item()
                            .get("by")
                            .s())
                    .isEqualTo("A");
            assertThat(points).containsExactly(ServerHooks.WRITE_CHECKED);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }
}
