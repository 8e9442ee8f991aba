package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * {@code getAll} as strongly consistent {@code BatchGetItem} requests of at most
 * {@value #KEYS_PER_REQUEST} keys (DynamoDB's limit). DynamoDB may leave keys unprocessed (when a
 * response would pass 16 MB, or a partition throttles): those are asked for again with capped,
 * jittered exponential backoff until every key was read or the deadline passed, and then the call
 * fails as retryable, naming how many keys were left. Nothing is written, so a retry is always safe.
 */
final class BatchRead {

    static final int KEYS_PER_REQUEST = 100;
    static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);
    private static final long FIRST_BACKOFF_MILLIS = 25;
    private static final long MAX_BACKOFF_MILLIS = 1_000;

    /** Waits between rounds; real sleeping in production, recorded in tests. */
    @FunctionalInterface
    interface Pause {
        void sleep(long millis) throws InterruptedException;
    }

    private final DynamoDbClient client;
    private final String table;
    private final ItemLayout layout;
    private final Duration deadline;
    private final LongSupplier nanoTime;
    private final Pause pause;

    BatchRead(DynamoDbClient client, String table, ItemLayout layout) {
        this(client, table, layout, DEFAULT_DEADLINE, System::nanoTime, Thread::sleep);
    }

    BatchRead(
            DynamoDbClient client,
            String table,
            ItemLayout layout,
            Duration deadline,
            LongSupplier nanoTime,
            Pause pause) {
        this.client = client;
        this.table = table;
        this.layout = layout;
        this.deadline = deadline;
        this.nanoTime = nanoTime;
        this.pause = pause;
    }

    Map<MetaKey, MetaValue> read(List<MetaKey> keys) {
        Map<String, MetaKey> byRangeKey = new HashMap<>();
        keys.forEach(key -> byRangeKey.put(key.toString(), key));
        Map<MetaKey, MetaValue> found = new HashMap<>();
        long giveUpAt = nanoTime.getAsLong() + deadline.toNanos();
        for (int from = 0; from < keys.size(); from += KEYS_PER_REQUEST) {
            List<Map<String, AttributeValue>> pending = new ArrayList<>();
            for (MetaKey key : keys.subList(from, Math.min(keys.size(), from + KEYS_PER_REQUEST))) {
                pending.add(layout.keyOf(key));
            }
            long backoff = FIRST_BACKOFF_MILLIS;
            while (!pending.isEmpty()) {
                pending = readOnce(pending, byRangeKey, found);
                if (pending.isEmpty()) {
                    break;
                }
                long left = giveUpAt - nanoTime.getAsLong();
                if (left <= 0) {
                    int unread = pending.size() + Math.max(0, keys.size() - from - KEYS_PER_REQUEST);
                    throw new StoreUnavailableException("BatchGetItem on table '" + table + "' left " + unread + " of "
                            + keys.size() + " keys unread after " + deadline + " (DynamoDB returned them as"
                            + " unprocessed: throttling or a full response); nothing was written: retry with backoff");
                }
                sleep(Math.min(left / 1_000_000 + 1, ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1)));
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            }
        }
        Map<MetaKey, MetaValue> inOrder = new LinkedHashMap<>();
        for (MetaKey key : keys) {
            MetaValue value = found.get(key);
            if (value != null) {
                inOrder.put(key, value);
            }
        }
        return Collections.unmodifiableMap(inOrder);
    }

    /** One request; answers the keys DynamoDB left unprocessed. */
    private List<Map<String, AttributeValue>> readOnce(
            List<Map<String, AttributeValue>> pending, Map<String, MetaKey> byRangeKey, Map<MetaKey, MetaValue> found) {
        BatchGetItemResponse response;
        try {
            response = client.batchGetItem(r -> r.requestItems(Map.of(
                    table,
                    KeysAndAttributes.builder()
                            .keys(pending)
                            .consistentRead(true)
                            .build())));
        } catch (SdkException e) {
            throw Failures.onRead("BatchGetItem of " + pending.size() + " keys", e, table);
        }
        for (Map<String, AttributeValue> item : response.responses().getOrDefault(table, List.of())) {
            String keyText = layout.keyTextOf(item);
            MetaKey key = keyText == null ? null : byRangeKey.get(keyText);
            if (key == null) {
                throw new DynamoStoreException("BatchGetItem on table '" + table + "' returned an item that was not"
                        + " asked for (" + layout.keyAttribute() + "=" + keyText + ")");
            }
            found.put(key, layout.valueIn(item, table));
        }
        KeysAndAttributes unprocessed = response.unprocessedKeys().get(table);
        return unprocessed == null || !unprocessed.hasKeys() ? List.of() : new ArrayList<>(unprocessed.keys());
    }

    private void sleep(long millis) {
        try {
            pause.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(
                    "BatchGetItem on table '" + table + "' was interrupted while"
                            + " waiting to retry unprocessed keys; nothing was written",
                    e);
        }
    }
}
