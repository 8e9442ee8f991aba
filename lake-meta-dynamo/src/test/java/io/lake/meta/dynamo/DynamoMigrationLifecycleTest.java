package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The whole migration of a legacy table with thousands of keys in several families, while dual
 * writers keep writing: backfill to the end, finalize, and then every key matches in both tables
 * and no acknowledged write is missing. Runs on every target.
 */
class DynamoMigrationLifecycleTest extends DynamoTestSupport {

    private static final List<String> FAMILIES = List.of("tbl", "lease", "ops", "reg");
    private static final int PER_FAMILY = 750;
    private static final int WRITERS = 3;
    private static final int KEYS_PER_WRITER = 20;

    @Test
    void aLegacyTableOfThousandsOfKeys_isMigratedOnline_withNoAcknowledgedWriteLost() throws Exception {
        DynamoDbClient client = client();
        String legacy = TARGET.uniqueTableName("life-v1");
        String table = TARGET.uniqueTableName("life-v2");
        track(ModeFixture.builder(client, DynamoLayoutMode.V1, legacy, null, Optional.empty())
                        .build())
                .close();
        load(client, legacy);
        List<MetaStore> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            writers.add(track(ModeFixture.builder(client, DynamoLayoutMode.DUAL, legacy, table, Optional.of(8))
                    .build()));
        }
        DynamoMigration migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();

        Map<MetaKey, Optional<MetaValue>> acknowledged = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong barrierRefusals = new AtomicLong();
        List<CompletableFuture<Long>> running = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            running.add(CompletableFuture.supplyAsync(
                    () -> write(writers.get(writer), writer, acknowledged, stop, barrierRefusals)));
        }
        BackfillPage page;
        int pages = 0;
        do {
            page = migration.backfillPage(250);
            pages++;
        } while (!page.done());
        FinalizeResult finalized = migration.finalizeMigration(500);
        stop.set(true);
        long writes = 0;
        for (CompletableFuture<Long> w : running) {
            writes += w.get();
        }

        System.out.printf(
                "lifecycle: %d legacy keys in %d families, %d backfill pages (copied %d, already equal %d,"
                        + " reloaded %d), %d dual writes acknowledged meanwhile (%d refused by the barrier and retried),"
                        + " finalize %s with %d items, digest %s%n",
                FAMILIES.size() * PER_FAMILY,
                FAMILIES.size(),
                pages,
                page.totals().copied(),
                page.totals().alreadyEqual(),
                page.totals().reloaded(),
                writes,
                barrierRefusals.get(),
                finalized.outcome(),
                finalized.parity().map(ParityReport::legacyItems).orElse(-1L),
                finalized.parity().map(ParityReport::legacyDigest).orElse("-"));
        assertThat(finalized.outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
        assertThat(writes).as("writes acknowledged during the migration").isPositive();
        assertThat(migration.verify(500).clean())
                .as("both tables still equal after the writers stopped")
                .isTrue();
        CopyReader copies = new CopyReader(client, legacy, table, new V2Layout(8));
        for (Map.Entry<MetaKey, Optional<MetaValue>> e : acknowledged.entrySet()) {
            assertThat(copies.legacyCopy(e.getKey()))
                    .as("legacy copy of %s", e.getKey())
                    .isEqualTo(e.getValue());
            assertThat(copies.v2Copy(e.getKey()))
                    .as("v2 copy of %s", e.getKey())
                    .isEqualTo(e.getValue());
        }
        migration.declareRollbackHorizonPassed();
        MetaStore after = track(ModeFixture.builder(client, DynamoLayoutMode.V2, legacy, table, Optional.of(8))
                .build());
        assertThat(after.get(MetaKey.of("reg/k" + (PER_FAMILY - 1))))
                .contains(MetaValue.utf8("legacy " + (PER_FAMILY - 1)));
    }

    /** Legacy content written straight into the table, 25 items per BatchWriteItem. */
    private static void load(DynamoDbClient client, String legacy) {
        List<WriteRequest> all = new ArrayList<>();
        for (String family : FAMILIES) {
            for (int i = 0; i < PER_FAMILY; i++) {
                all.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(V1Layout.INSTANCE.itemOf(
                                        MetaKey.of(family + "/k" + i), MetaValue.utf8("legacy " + i)))
                                .build())
                        .build());
            }
        }
        for (int i = 0; i < all.size(); i += 25) {
            Map<String, List<WriteRequest>> unprocessed = Map.of(legacy, all.subList(i, Math.min(all.size(), i + 25)));
            while (!unprocessed.isEmpty()) {
                Map<String, List<WriteRequest>> request = unprocessed;
                unprocessed =
                        client.batchWriteItem(r -> r.requestItems(request)).unprocessedItems();
            }
        }
    }

    /**
     * One writer: its own legacy keys updated, and keys of its own created and deleted, until told
     * to stop; a write refused by the barrier is retried. Records what each key held after the
     * last acknowledged write.
     */
    private static long write(
            MetaStore store,
            int writer,
            Map<MetaKey, Optional<MetaValue>> acknowledged,
            AtomicBoolean stop,
            AtomicLong barrierRefusals) {
        Map<MetaKey, Optional<MetaValue>> mine = new HashMap<>();
        for (int i = 0; i < KEYS_PER_WRITER; i++) {
            int n = writer * KEYS_PER_WRITER + i;
            mine.put(MetaKey.of("tbl/k" + n), Optional.of(MetaValue.utf8("legacy " + n)));
            mine.put(MetaKey.of("ops/new/w" + writer + "-" + i), Optional.empty());
        }
        List<MetaKey> keys = mine.keySet().stream().sorted().collect(Collectors.toList());
        long acks = 0;
        for (int round = 0; !stop.get() || round < 2; round++) {
            for (MetaKey key : keys) {
                Optional<MetaValue> current = mine.get(key);
                Optional<MetaValue> next =
                        key.toString().startsWith("ops/new/") && current.isPresent() && round % 3 == 2
                                ? Optional.empty()
                                : Optional.of(MetaValue.utf8("w" + writer + " round " + round));
                while (true) {
                    try {
                        WriteResult result = next.isEmpty()
                                ? store.delete(key, current.get())
                                : current.isEmpty()
                                        ? store.create(key, next.get())
                                        : store.update(key, current.get(), next.get());
                        assertThat(result)
                                .as("%s: the only writer of its keys", key)
                                .isEqualTo(WriteResult.applied());
                        break;
                    } catch (WriteBarrierException e) {
                        barrierRefusals.incrementAndGet();
                        Thread.onSpinWait();
                    }
                }
                mine.put(key, next);
                acknowledged.put(key, next);
                acks++;
            }
        }
        return acks;
    }
}
