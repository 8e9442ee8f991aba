package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * A TransactWriteItems becomes visible to reads all at once: a read that arrives while the
 * transaction's items are being put in place waits for the last of them. Proved by pausing a
 * transaction after its first item took effect ({@link ServerHooks#TRANSACTION_APPLYING}), not by
 * timing: each read either answers at once (it must then see the old state of every item) or
 * reaches {@link ServerHooks#READ_WAITING}.
 */
class TransactionVisibilityTest extends ServerTestSupport {

    private final CountDownLatch applying = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<String> readWaiting = new CompletableFuture<>();
    private ExecutorService pool;

    @BeforeEach
    void pausedTransactionSetup() {
        createTable("vis_a", null);
        createTable("vis_b", null);
        client.putItem(r -> r.tableName("vis_a").item(Map.of("pk", s("k"), "v", s("old"))));
        client.putItem(r -> r.tableName("vis_b").item(Map.of("pk", s("k"), "v", s("old"))));
        server.hooks(new ServerHooks() {
            @Override
            public void reached(String point) {}

            @Override
            public void reached(String point, String operation, Set<String> tables) {
                if (point.equals(ServerHooks.TRANSACTION_APPLYING)) {
                    applying.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                } else if (point.equals(ServerHooks.READ_WAITING)) {
                    readWaiting.complete(operation);
                }
            }
        });
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void releaseAll() {
        release.countDown();
        pool.shutdownNow();
    }

    /** Starts the transaction writing "new" to both items and waits until its first item took effect. */
    private Future<?> transactionPausedHalfway() throws InterruptedException {
        Future<?> writer = pool.submit(() -> client.transactWriteItems(r -> r.transactItems(
                TransactWriteItem.builder()
                        .put(p -> p.tableName("vis_a").item(Map.of("pk", s("k"), "v", s("new"))))
                        .build(),
                TransactWriteItem.builder()
                        .put(p -> p.tableName("vis_b").item(Map.of("pk", s("k"), "v", s("new"))))
                        .build())));
        assertThat(applying.await(30, TimeUnit.SECONDS))
                .as("the transaction reached its first applied item")
                .isTrue();
        return writer;
    }

    private static String value(String table) {
        return client.getItem(r -> r.tableName(table).key(key("k")).consistentRead(true))
                .item()
                .get("v")
                .s();
    }

    /**
     * Runs {@code read} while the transaction is paused halfway. If it answers at once, returns
     * its answer together with the state of the other item read right after, still mid-transaction;
     * if it waits, releases the transaction and returns its answer then.
     */
    private <T> List<Object> readWhilePaused(Supplier<T> read, Future<?> writer) throws Exception {
        CompletableFuture<T> answer = CompletableFuture.supplyAsync(read, pool);
        CompletableFuture.anyOf(answer, readWaiting).get(30, TimeUnit.SECONDS);
        boolean answeredMidTransaction = answer.isDone();
        String otherItemMeanwhile = answeredMidTransaction ? value("vis_b") : null;
        release.countDown();
        writer.get(30, TimeUnit.SECONDS);
        return java.util.Arrays.asList(answeredMidTransaction, answer.get(30, TimeUnit.SECONDS), otherItemMeanwhile);
    }

    @Test
    void getItem_ofTheFirstItem_waitsUntilTheWholeTransactionIsVisible() throws Exception {
        Future<?> writer = transactionPausedHalfway();

        List<Object> seen = readWhilePaused(() -> value("vis_a"), writer);

        if ((Boolean) seen.get(0)) {
            // answered while the second item was not yet written: it must not show the first one's new value
            assertThat(List.of(seen.get(1), seen.get(2)))
                    .as("a read saw vis_a=%s and then vis_b=%s mid-transaction", seen.get(1), seen.get(2))
                    .isIn(List.of("old", "old"), List.of("new", "new"));
        }
        assertThat(seen.get(0)).as("the read waited for the transaction").isEqualTo(false);
        assertThat(readWaiting.get()).isEqualTo("GetItem");
        assertThat(seen.get(1)).isEqualTo("new");
        assertThat(value("vis_b")).isEqualTo("new");
    }

    @Test
    void query_waitsToo() throws Exception {
        Future<?> writer = transactionPausedHalfway();

        List<Object> query = readWhilePaused(
                () -> client.query(r -> r.tableName("vis_a")
                                .consistentRead(true)
                                .keyConditionExpression("pk = :k")
                                .expressionAttributeValues(Map.of(":k", s("k"))))
                        .items()
                        .get(0)
                        .get("v")
                        .s(),
                writer);

        assertThat(query.get(0)).as("the query waited for the transaction").isEqualTo(false);
        assertThat(query.get(1)).isEqualTo("new");
        assertThat(readWaiting.get()).isEqualTo("Query");
    }

    @Test
    void scanAndBatchGet_seeAllOrNothing() throws Exception {
        Future<?> writer = transactionPausedHalfway();
        CompletableFuture<String> scan = CompletableFuture.supplyAsync(
                () -> client.scan(r -> r.tableName("vis_a"))
                        .items()
                        .get(0)
                        .get("v")
                        .s(),
                pool);
        CompletableFuture<List<String>> batch = CompletableFuture.supplyAsync(
                () -> {
                    Map<String, List<Map<String, AttributeValue>>> responses = client.batchGetItem(r ->
                                    r.requestItems(Map.of(
                                            "vis_a",
                                                    software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                                                            .builder()
                                                            .keys(key("k"))
                                                            .build(),
                                            "vis_b",
                                                    software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                                                            .builder()
                                                            .keys(key("k"))
                                                            .build())))
                            .responses();
                    return List.of(
                            responses.get("vis_a").get(0).get("v").s(),
                            responses.get("vis_b").get(0).get("v").s());
                },
                pool);

        // each read has either answered (then with the old state throughout) or is waiting
        CompletableFuture.anyOf(scan, readWaiting).get(30, TimeUnit.SECONDS);
        boolean scanAnswered = scan.isDone();
        release.countDown();
        writer.get(30, TimeUnit.SECONDS);

        assertThat(scanAnswered).as("the scan waited for the transaction").isFalse();
        assertThat(scan.get(30, TimeUnit.SECONDS)).isEqualTo("new");
        assertThat(batch.get(30, TimeUnit.SECONDS))
                .as("both items from one batch read")
                .isIn(List.of("old", "old"), List.of("new", "new"));
    }
}
