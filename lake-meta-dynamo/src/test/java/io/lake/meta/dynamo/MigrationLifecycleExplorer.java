package io.lake.meta.dynamo;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A seeded, model-based explorer of the migration's lifecycle as operators walk it: each sequence
 * starts from a loaded legacy table and draws operator actions (open a store in any mode, also
 * the ones the runbook forbids then; backfill pages; a migrator killed mid-page; finalize, a
 * finalizer killed at each of its steps, a re-run; releasing a barrier; rollback; the horizon;
 * deleting the legacy table; restarting stores; faults and the passing of DynamoDB's token window)
 * interleaved with compare-and-set writes and reads through every open store. After every step it
 * checks the model:
 *
 * <ul>
 *   <li>every acknowledged write is what the authority copy holds (a write whose outcome is unknown
 *       may or may not have applied: the model keeps both possibilities until a read settles it);
 *       values are unique, so a write undone shows as a value outside the possibilities;</li>
 *   <li>no store reads a value outside the possibilities (an older value it could see);</li>
 *   <li>a write applies only when its expected bytes were current, and a conflict names a current value;</li>
 *   <li>the barrier and the completion marker are where the model says;</li>
 *   <li>after every finalize and rollback both tables hold exactly the same keys and values;</li>
 *   <li>every refusal (an open, a write, a finalize, a rollback) is the documented one.</li>
 * </ul>
 *
 * Single-threaded and deterministic: one seed is one sequence, replayed by the same seed. Faults and
 * the token window need the in-process server; on an explicit endpoint they are skipped.
 */
final class MigrationLifecycleExplorer {

    /** One violation of the model, with the step that showed it. */
    record Violation(int step, String what) {
        @Override
        public String toString() {
            return "step " + step + ": " + what;
        }
    }

    /** What one sequence did. */
    record Outcome(
            long seed, List<String> steps, List<Violation> violations, Map<String, Integer> counts, int stepCount) {

        String report() {
            StringBuilder b = new StringBuilder("seed ")
                    .append(seed)
                    .append(" (replay with -D")
                    .append(MigrationLifecycleExplorerTest.SEED_PROPERTY)
                    .append('=')
                    .append(seed)
                    .append("): ")
                    .append(violations.size())
                    .append(" violation(s)\n");
            violations.forEach(v -> b.append("  VIOLATION ").append(v).append('\n'));
            b.append("  steps:\n");
            for (int i = 0; i < steps.size(); i++) {
                b.append("    ").append(steps.get(i)).append('\n');
            }
            return b.toString();
        }
    }

    private static final List<String> FAMILIES = List.of("tbl", "lease", "ops");
    private static final int SHARDS = 2;
    private static final int MAX_OPEN_STORES = 4;
    private static final Duration TOKEN_WINDOW_PASSED = Duration.ofMinutes(11);
    private static final AtomicLong TABLES = new AtomicLong();

    private final DynamoDbClient client;
    private final DynamoDbTestServer server;
    private final ManualClock clock;
    private final TokenWindowInterceptor tokenWindow;
    private final int stepsPerSequence;
    private final int legacyKeys;

    /**
     * @param server the in-process server whose faults the explorer arms, or null on an explicit endpoint
     * @param clock the server's clock, advanced past the token window; null on an explicit endpoint
     * @param tokenWindow the client's interceptor that moves the clock between two attempts; null without a server
     */
    MigrationLifecycleExplorer(
            DynamoDbClient client,
            DynamoDbTestServer server,
            ManualClock clock,
            TokenWindowInterceptor tokenWindow,
            int stepsPerSequence,
            int legacyKeys) {
        this.client = client;
        this.server = server;
        this.clock = clock;
        this.tokenWindow = tokenWindow;
        this.stepsPerSequence = stepsPerSequence;
        this.legacyKeys = legacyKeys;
    }

    Outcome run(long seed) {
        Sequence sequence = new Sequence(seed);
        try {
            sequence.run();
        } catch (RuntimeException | AssertionError e) {
            sequence.violation("the explorer itself stopped: " + e);
        } finally {
            sequence.cleanUp();
        }
        // a clean sequence keeps no log: a long run holds only what it prints
        return new Outcome(
                seed,
                sequence.violations.isEmpty() ? List.of() : sequence.log,
                sequence.violations,
                sequence.counts,
                Math.min(sequence.step, stepsPerSequence));
    }

    /** A store the explorer opened, as the model knows it. */
    private static final class OpenStore {
        final int id;
        final DynamoLayoutMode mode;
        final MetaStore store;

        OpenStore(int id, DynamoLayoutMode mode, MetaStore store) {
            this.id = id;
            this.mode = mode;
            this.store = store;
        }

        /** Whether the store reads the v2 table now (a DUAL store may switch authority while it runs). */
        boolean v2Authority() {
            return mode == DynamoLayoutMode.V2 || store.toString().contains("authority=V2");
        }

        @Override
        public String toString() {
            return "store#" + id + "(" + mode
                    + (mode == DynamoLayoutMode.DUAL ? (v2Authority() ? " v2-auth" : " v1-auth") : "") + ")";
        }
    }

    /** The model's phase flags. */
    private final class Sequence {
        final long seed;
        final Random random;
        final String legacy;
        final String table;
        final List<String> log = new ArrayList<>();
        final List<Violation> violations = new ArrayList<>();
        final Map<String, Integer> counts = new TreeMap<>();
        final Map<MetaKey, Set<Optional<MetaValue>>> possible =
                new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        final List<MetaKey> keys = new ArrayList<>();
        final List<OpenStore> stores = new ArrayList<>();
        final Set<MetaKey> divergedKeys = new java.util.HashSet<>();
        final List<MetaKey> recentKeys = new ArrayList<>();
        boolean rolledBack;
        final CopyReader copies;
        int step;
        int nextStoreId;
        long nextValue;
        boolean v2TableExists;
        boolean protocolStarted;
        boolean marker;
        boolean horizon;
        boolean barrierHeld;
        boolean legacyDeleted;
        /** Pages stored in this backfill round (since the start, or the last rollback). */
        int roundPages;
        /** Whether the round's backfill answered done. After a rollback unknown until a page answers. */
        Boolean backfillDone = Boolean.FALSE;
        /** A V1 write was acknowledged after this round's backfill started: the runbook forbids it, so a finalize may fail verification. */
        boolean v1WriteDuringBackfill;
        /** Faults armed for the current step only. */
        boolean faultArmed;
        /** Set by the migrator's actions: the barrier and the marker are checked after them. */
        boolean migratorActed;

        DynamoMigration migration;
        /** A store wrote one table alone outside the runbook (V1 during the backfill, V2 before the horizon). */
        boolean oneTableWritten;

        boolean verificationFailureReported;

        Sequence(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
            long n = TABLES.incrementAndGet();
            this.legacy = "lm-explore-" + n + "-v1-" + Long.toHexString(seed & 0xffffff);
            this.table = "lm-explore-" + n + "-v2-" + Long.toHexString(seed & 0xffffff);
            this.copies = new CopyReader(client, legacy, table, new V2Layout(SHARDS));
        }

        void run() {
            setUp();
            for (step = 1; step <= stepsPerSequence; step++) {
                faultArmed = false;
                drawAndRun();
                if (server != null) {
                    server.faults().clear();
                }
                if (tokenWindow != null) {
                    tokenWindow.disarm();
                }
                checkAfterStep();
            }
        }

        // ---- set-up and clean-up ---------------------------------------------------------------

        void setUp() {
            builder(DynamoLayoutMode.V1, true).build().close();
            List<WriteRequest> puts = new ArrayList<>();
            for (int i = 0; i < legacyKeys; i++) {
                MetaKey key = MetaKey.of(FAMILIES.get(i % FAMILIES.size()) + "/k" + i);
                MetaValue value = MetaValue.utf8("L" + i);
                keys.add(key);
                possible.put(key, Set.of(Optional.of(value)));
                puts.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(V1Layout.INSTANCE.itemOf(key, value))
                                .build())
                        .build());
            }
            for (int i = 0; i < puts.size(); i += 25) {
                Map<String, List<WriteRequest>> unprocessed =
                        Map.of(legacy, puts.subList(i, Math.min(puts.size(), i + 25)));
                while (!unprocessed.isEmpty()) {
                    Map<String, List<WriteRequest>> request = unprocessed;
                    unprocessed =
                            client.batchWriteItem(r -> r.requestItems(request)).unprocessedItems();
                }
            }
            for (int i = 0; i < 4; i++) {
                MetaKey fresh = MetaKey.of(FAMILIES.get(i % FAMILIES.size()) + "/new" + i);
                keys.add(fresh);
                possible.put(fresh, Set.of(Optional.empty()));
            }
            log.add("setup: legacy table with " + legacyKeys + " keys in " + FAMILIES.size() + " families, "
                    + (keys.size() - legacyKeys) + " keys absent");
        }

        void cleanUp() {
            for (OpenStore s : stores) {
                try {
                    s.store.close();
                } catch (RuntimeException ignored) {
                    // the sequence is over
                }
            }
            for (String t : List.of(legacy, table)) {
                try {
                    client.deleteTable(r -> r.tableName(t));
                } catch (SdkException ignored) {
                    // never created, or deleted by the sequence
                }
            }
        }

        /** The stores' and the migration's own time: the server's manual clock, so the token window passes for both. */
        io.lake.meta.Ticker ticker() {
            return () -> clock.millis() * 1_000_000L;
        }

        DynamoMetaStore.Builder builder(DynamoLayoutMode mode, boolean createIfMissing) {
            // one configuration for every phase, as the guide says: only the mode changes
            DynamoMetaStore.Builder b = DynamoMetaStore.builder()
                    .client(client)
                    .mode(mode)
                    .createTableIfMissing(createIfMissing)
                    .pollInterval(Duration.ofMillis(50))
                    .legacyTableName(legacy)
                    .tableName(table)
                    .shardCount(SHARDS);
            if (clock != null) {
                b.ticker(ticker());
            }
            return b;
        }

        // ---- drawing ---------------------------------------------------------------------------

        void drawAndRun() {
            List<Runnable> actions = new ArrayList<>();
            List<Integer> weights = new ArrayList<>();
            boolean anyOpen = !stores.isEmpty();
            // the runbook's order is the likelier one (V1 writers before the backfill, a finalize once it is done,
            // rollbacks and the
            // horizon once finalized), but every action stays possible in every phase
            boolean rollout = !marker && roundPages == 0;
            boolean backfilled = !marker && Boolean.TRUE.equals(backfillDone);
            add(actions, weights, 3, () -> open(DynamoLayoutMode.DUAL));
            add(actions, weights, rollout ? (rolledBack ? 5 : 3) : 1, () -> open(DynamoLayoutMode.V1));
            if (v2TableExists) {
                add(actions, weights, 1, () -> open(DynamoLayoutMode.V2));
            }
            if (anyOpen) {
                add(actions, weights, 14, this::write);
                add(actions, weights, 4, this::read);
                add(actions, weights, 2, this::restartOne);
                add(actions, weights, 1, this::closeOne);
            }
            if (!legacyDeleted) {
                add(actions, weights, marker ? 1 : 6, this::backfillPage);
                add(actions, weights, marker ? 1 : 2, this::killBackfillMidPage);
                add(actions, weights, backfilled ? 6 : 2, this::finalizeMigration);
                add(actions, weights, backfilled ? 3 : 1, this::killFinalize);
                add(actions, weights, barrierHeld ? 4 : 1, this::releaseBarrier);
                add(actions, weights, marker && !horizon ? 5 : 1, this::rollback);
                add(actions, weights, 1, this::rollbackWhileTheBarrierIsReleased);
                if (server != null) {
                    add(actions, weights, backfilled ? 2 : 1, this::finalizeMeetingAConflictOnPublishing);
                }
                add(actions, weights, marker && !horizon ? 2 : 1, this::declareHorizon);
            }
            if (horizon && !legacyDeleted) {
                add(actions, weights, 1, this::deleteLegacyTable);
            }
            if (anyOpen && server != null) {
                add(actions, weights, 2, this::faultedWrite);
                add(actions, weights, 1, this::writeAcrossTheTokenWindow);
            }
            int total = weights.stream().mapToInt(Integer::intValue).sum();
            int pick = random.nextInt(total);
            for (int i = 0; i < actions.size(); i++) {
                pick -= weights.get(i);
                if (pick < 0) {
                    actions.get(i).run();
                    return;
                }
            }
        }

        void add(List<Runnable> actions, List<Integer> weights, int weight, Runnable action) {
            actions.add(action);
            weights.add(weight);
        }

        void record(String what) {
            log.add(step + ": " + what);
        }

        void count(String what) {
            counts.merge(what, 1, Integer::sum);
        }

        void violation(String what) {
            violations.add(new Violation(step, what));
            log.add(step + ":   !! " + what);
        }

        // ---- opening and closing stores --------------------------------------------------------

        /**
         * The documented refusal of opening {@code mode} now, or empty when it opens: the table "each phase x each
         * mode" of docs/guides/dynamodb-migration.md (P0..P6).
         */
        Optional<ModeRefusedException.Reason> documentedRefusal(DynamoLayoutMode mode) {
            switch (mode) {
                case V1:
                    return marker ? Optional.of(ModeRefusedException.Reason.MIGRATION_FINALIZED) : Optional.empty();
                case DUAL:
                    return Optional.empty();
                default:
                    return !protocolStarted || horizon
                            ? Optional.empty()
                            : marker
                                    ? Optional.of(ModeRefusedException.Reason.ROLLBACK_HORIZON_NOT_PASSED)
                                    : Optional.of(ModeRefusedException.Reason.MIGRATION_NOT_FINALIZED);
            }
        }

        void open(DynamoLayoutMode mode) {
            if (stores.size() >= MAX_OPEN_STORES) {
                closeOne();
            }
            boolean createIfMissing = mode == DynamoLayoutMode.DUAL && (!v2TableExists || random.nextBoolean());
            Optional<ModeRefusedException.Reason> refusal = documentedRefusal(mode);
            String what = "open " + mode + (createIfMissing ? " (createTableIfMissing)" : "") + " in " + phase();
            MetaStore store;
            try {
                store = builder(mode, createIfMissing).build();
            } catch (DynamoStoreException e) {
                String reason = e instanceof ModeRefusedException r
                        ? r.mode() + " " + r.reason()
                        : e.getClass().getSimpleName();
                record(what + " => refused (" + reason + "): " + firstLine(e));
                count("open " + mode + " refused in " + phase());
                if (refusal.isEmpty()) {
                    violation(mode + " was refused in " + phase() + ", where it opens"
                            + (legacyDeleted ? " (issue 22 item 10)" : "") + ": " + e.getMessage());
                } else if (!(e instanceof ModeRefusedException r && r.mode() == mode && r.reason() == refusal.get())) {
                    violation(mode + " was refused in " + phase() + " with " + reason + ", the documented refusal is "
                            + "ModeRefusedException " + mode + " " + refusal.get() + ": " + e.getMessage());
                }
                checkLegacyNotRecreated();
                return;
            } catch (RuntimeException e) {
                record(what + " => " + e);
                violation(mode + " failed to open in " + phase() + " with an undocumented error: " + e);
                return;
            }
            OpenStore opened = new OpenStore(nextStoreId++, mode, store);
            stores.add(opened);
            record(what + " => opened " + opened);
            count("open " + mode + " opened in " + phase());
            if (mode == DynamoLayoutMode.DUAL) {
                v2TableExists = true;
                protocolStarted = true;
                if (opened.v2Authority() != marker) {
                    violation(opened + " opened with the " + (opened.v2Authority() ? "v2" : "legacy")
                            + " authority, but the completion marker is " + (marker ? "present" : "absent"));
                }
            }
            if (refusal.isPresent()) {
                violation(mode + " opened in " + phase() + ", where the documented answer is a refusal ("
                        + refusal.get() + ")"
                        + (mode == DynamoLayoutMode.V2
                                ? " (issue 22 item 1: a V2 store writes around the dual-write protocol)"
                                : ""));
            }
            checkLegacyNotRecreated();
        }

        void checkLegacyNotRecreated() {
            if (legacyDeleted && tableExists(legacy)) {
                violation("opening a store re-created the deleted legacy table '" + legacy + "' (issue 22 item 10)");
                try {
                    client.deleteTable(r -> r.tableName(legacy));
                } catch (SdkException ignored) {
                    // reported
                }
            }
        }

        void closeOne() {
            OpenStore s = stores.remove(random.nextInt(stores.size()));
            s.store.close();
            record("close " + s);
        }

        void restartOne() {
            OpenStore s = stores.remove(random.nextInt(stores.size()));
            s.store.close();
            record("restart " + s + ": closed");
            open(s.mode);
        }

        /** The operator's acknowledgement of a finalize (--ack-rollout): no store runs in mode V1. */
        void closeV1Stores() {
            for (OpenStore s : List.copyOf(stores)) {
                if (s.mode == DynamoLayoutMode.V1) {
                    stores.remove(s);
                    s.store.close();
                    record("close " + s + " (the rollout to DUAL completes)");
                }
            }
        }

        /** The acknowledgement of the horizon (declare-horizon --ack-stores-restarted): every store reads the v2 table. */
        void restartStoresOnTheLegacyAuthority() {
            for (OpenStore s : List.copyOf(stores)) {
                if (!s.v2Authority()) {
                    stores.remove(s);
                    s.store.close();
                    record("close " + s + " (every store is restarted before the horizon)");
                    open(s.mode);
                }
            }
        }

        // ---- writes and reads ------------------------------------------------------------------

        void write() {
            OpenStore s = stores.get(random.nextInt(stores.size()));
            if (random.nextInt(5) == 0) {
                transactThrough(s);
            } else {
                writeThrough(s, "");
            }
        }

        /** A transaction of two keys' compare-and-set mutations, on what the model knows (or a stale guess). */
        void transactThrough(OpenStore s) {
            MetaKey a = pickKey();
            MetaKey b = pickKey();
            if (a.equals(b)) {
                writeThrough(s, "");
                return;
            }
            Transaction.Builder tx = Transaction.builder();
            Map<MetaKey, Optional<MetaValue>> expected =
                    new TreeMap<>((x, y) -> x.toString().compareTo(y.toString()));
            Map<MetaKey, Optional<MetaValue>> next =
                    new TreeMap<>((x, y) -> x.toString().compareTo(y.toString()));
            StringBuilder what = new StringBuilder(s + " transact");
            for (MetaKey k : List.of(a, b)) {
                List<Optional<MetaValue>> choices = new ArrayList<>(possible.get(k));
                Optional<MetaValue> e = random.nextInt(12) == 0
                        ? Optional.of(MetaValue.utf8("never-written"))
                        : choices.get(random.nextInt(choices.size()));
                Optional<MetaValue> n = e.isPresent() && random.nextInt(4) == 0
                        ? Optional.empty()
                        : Optional.of(MetaValue.utf8("w" + (nextValue++)));
                if (e.isEmpty()) {
                    tx.create(k, n.get());
                } else if (n.isEmpty()) {
                    tx.delete(k, e.get());
                } else {
                    tx.update(k, e.get(), n.get());
                }
                expected.put(k, e);
                next.put(k, n);
                what.append(' ')
                        .append(k)
                        .append(' ')
                        .append(text(e))
                        .append(" -> ")
                        .append(text(n))
                        .append(';');
            }
            TransactionResult result;
            try {
                result = s.store.transact(tx.build());
            } catch (RuntimeException e) {
                record(what + " => " + e.getClass().getSimpleName() + ": " + firstLine(e));
                for (MetaKey k : expected.keySet()) {
                    writeFailed(s, k, expected.get(k), next.get(k), e);
                }
                return;
            }
            record(what + " => " + result);
            if (result.isApplied()) {
                count("transaction applied " + s.mode);
                for (MetaKey k : expected.keySet()) {
                    if (!possible.get(k).contains(expected.get(k))) {
                        violation(s + " applied a transaction expecting " + k + " = " + text(expected.get(k))
                                + " although it held one of " + texts(possible.get(k))
                                + ": a store conditioned the write on a stale copy");
                    }
                    possible.put(k, Set.of(next.get(k)));
                }
                noteV1Write(s);
                return;
            }
            count("transaction conflict " + s.mode);
            if (result.failures().isEmpty()) {
                violation(s + " answered a transaction not applied, naming no key");
            }
            boolean someExpectationFails = false;
            for (MetaKey k : expected.keySet()) {
                if (!possible.get(k).contains(expected.get(k))
                        || possible.get(k).size() > 1) {
                    someExpectationFails = true;
                }
            }
            for (TransactionFailure f : result.failures()) {
                if (!f.isCurrentKnown()) {
                    continue;
                }
                Set<Optional<MetaValue>> now = possible.get(f.key());
                if (now == null || !now.contains(f.currentValue())) {
                    violation(s + " answered a transaction conflict naming " + f.key() + " = " + text(f.currentValue())
                            + ", but it held one of " + (now == null ? "[not in the transaction]" : texts(now)));
                } else {
                    possible.put(f.key(), Set.of(f.currentValue()));
                }
                if (f.currentValue().equals(expected.get(f.key()))) {
                    violation(
                            s + " answered a transaction conflict on " + f.key() + " naming its expected value itself");
                }
            }
            if (!someExpectationFails) {
                violation(s + " refused a transaction whose every expectation held: " + result);
            }
        }

        /** A write whose first attempt applies and whose answer is lost; the client retries. */
        void faultedWrite() {
            OpenStore s = stores.get(random.nextInt(stores.size()));
            String op = s.mode == DynamoLayoutMode.DUAL && !horizon ? "TransactWriteItems" : null;
            Fault fault = (random.nextBoolean() ? Fault.applyThenDropResponse() : Fault.applyThenInternalServerError())
                    .onAttempt(1);
            server.faults().arm(op == null ? fault : fault.onOperation(op));
            faultArmed = true;
            writeThrough(s, "[fault: " + fault + "] ");
        }

        /**
         * A write whose first attempt applies, answer lost, and whose retry comes after DynamoDB
         * forgot the ClientRequestToken (issue 22 item 3): the clock moves 11 minutes between the attempts.
         */
        void writeAcrossTheTokenWindow() {
            OpenStore s = stores.get(random.nextInt(stores.size()));
            server.faults().arm(Fault.applyThenDropResponse().onAttempt(1));
            tokenWindow.armAdvance(clock, TOKEN_WINDOW_PASSED);
            faultArmed = true;
            writeThrough(s, "[first attempt applies, answer lost, retry 11 minutes later] ");
        }

        /** Half the time a key another step touched lately: stores meet on the same keys more often. */
        MetaKey pickKey() {
            MetaKey key = !recentKeys.isEmpty() && random.nextBoolean()
                    ? recentKeys.get(random.nextInt(recentKeys.size()))
                    : keys.get(random.nextInt(keys.size()));
            recentKeys.remove(key);
            recentKeys.add(key);
            if (recentKeys.size() > 3) {
                recentKeys.remove(0);
            }
            return key;
        }

        void writeThrough(OpenStore s, String prefix) {
            MetaKey key = pickKey();
            Set<Optional<MetaValue>> now = possible.get(key);
            List<Optional<MetaValue>> choices = new ArrayList<>(now);
            Optional<MetaValue> expected = choices.get(random.nextInt(choices.size()));
            if (random.nextInt(3) == 0) {
                // read-modify-write through the same store, as services do: the compare-and-set expects what the store
                // read
                if (!readThrough(s, key)) {
                    return;
                }
                now = possible.get(key);
                expected = now.iterator().next();
                prefix = prefix + "(after reading) ";
            } else if (random.nextInt(10) == 0) {
                expected = random.nextBoolean() ? Optional.of(MetaValue.utf8("never-written")) : Optional.empty();
            }
            Optional<MetaValue> next = expected.isPresent() && random.nextInt(4) == 0
                    ? Optional.empty()
                    : Optional.of(MetaValue.utf8("w" + (nextValue++)));
            if (expected.isEmpty() && next.isEmpty()) {
                next = Optional.of(MetaValue.utf8("w" + (nextValue++)));
            }
            String what = prefix + s + " "
                    + (expected.isEmpty()
                            ? "create " + key + " " + text(next)
                            : next.isEmpty()
                                    ? "delete " + key + " " + text(expected)
                                    : "update " + key + " " + text(expected) + " -> " + text(next));
            WriteResult result;
            try {
                result = expected.isEmpty()
                        ? s.store.create(key, next.get())
                        : next.isEmpty()
                                ? s.store.delete(key, expected.get())
                                : s.store.update(key, expected.get(), next.get());
            } catch (RuntimeException e) {
                record(what + " => " + e.getClass().getSimpleName() + ": " + firstLine(e));
                writeFailed(s, key, expected, next, e);
                return;
            }
            record(what + " => " + result);
            if (result.isApplied()) {
                count("write applied " + s.mode);
                if (!now.contains(expected)) {
                    violation(s + " applied " + what + " although " + key + " held one of " + texts(now)
                            + ": a store conditioned the write on a stale copy (an acknowledged write is undone)");
                }
                possible.put(key, Set.of(next));
                noteV1Write(s);
            } else if (result.isCurrentKnown()) {
                count("write conflict " + s.mode);
                Optional<MetaValue> current = result.currentValue();
                if (!now.contains(current)) {
                    violation(s + " answered conflict(" + text(current) + ") to " + what + ", but " + key
                            + " held one of " + texts(now));
                }
                if (current.equals(expected)) {
                    violation(s + " answered a conflict naming the expected value itself");
                }
                possible.put(key, Set.of(current));
            } else {
                count("write conflict (current unknown) " + s.mode);
            }
        }

        void noteV1Write(OpenStore s) {
            if (s.mode == DynamoLayoutMode.V1 && roundPages > 0) {
                v1WriteDuringBackfill = true;
            }
            if (s.mode == DynamoLayoutMode.V2 && !horizon) {
                oneTableWritten =
                        true; // that V2 store should not exist (reported at its open); its writes skip the legacy table
            }
        }

        void writeFailed(
                OpenStore s, MetaKey key, Optional<MetaValue> expected, Optional<MetaValue> next, RuntimeException e) {
            Set<Optional<MetaValue>> now = possible.get(key);
            count("write " + e.getClass().getSimpleName() + " " + s.mode);
            if (e instanceof OutcomeUnknownException) {
                if (!faultArmed) {
                    violation(s + ": outcome unknown without any fault: " + e.getMessage());
                }
                if (now.contains(expected)) {
                    Set<Optional<MetaValue>> widened = new LinkedHashSet<>(now);
                    widened.add(next);
                    possible.put(key, widened);
                    noteV1Write(s);
                }
            } else if (e instanceof StoreUnavailableException) {
                if (!faultArmed) {
                    violation(s + ": unavailable without any fault: " + e.getMessage());
                }
            } else if (e instanceof WriteBarrierException) {
                if (!barrierHeld) {
                    violation(s + " refused a write with a write barrier, but none is held: " + e.getMessage());
                }
            } else if (e instanceof CopiesDivergedException) {
                violation(
                        s + " reported diverged copies, but nothing ever wrote one table by hand (issue 22 items 6, 7):"
                                + " a documented step led to a hand repair: " + e.getMessage());
            } else {
                violation(s + " failed a write with an undocumented error in " + phase()
                        + (legacyDeleted ? " (issue 22 item 10)" : "") + ": " + e);
            }
        }

        void read() {
            OpenStore s = stores.get(random.nextInt(stores.size()));
            if (random.nextInt(4) == 0) {
                listThrough(s, FAMILIES.get(random.nextInt(FAMILIES.size())));
                return;
            }
            MetaKey key = pickKey();
            readThrough(s, key);
        }

        /** Lists a whole family through the store (pages of 5, tokens followed) and checks every key of it. */
        void listThrough(OpenStore s, String family) {
            Map<MetaKey, MetaValue> listed =
                    new TreeMap<>((x, y) -> x.toString().compareTo(y.toString()));
            int pages = 0;
            try {
                Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.family(family), 5));
                while (request.isPresent() && pages < 100) {
                    Page page = s.store.page(request.get());
                    page.entries().forEach(e -> listed.put(e.key(), e.value()));
                    request = request.get().next(page);
                    pages++;
                }
            } catch (RuntimeException e) {
                record(s + " list " + family + " => " + e);
                violation(s + " failed a listing in " + phase() + ": " + e);
                return;
            }
            record(s + " list " + family + " => " + listed.size() + " entries in " + pages + " page(s)");
            count("list " + s.mode);
            for (Map.Entry<MetaKey, Set<Optional<MetaValue>>> e : possible.entrySet()) {
                if (!KeyPrefix.family(family).contains(e.getKey())) {
                    continue;
                }
                Optional<MetaValue> got = Optional.ofNullable(listed.get(e.getKey()));
                if (!e.getValue().contains(got)) {
                    violation(
                            s + " listed " + e.getKey() + " as " + text(got) + ", but acknowledged writes leave one of "
                                    + texts(e.getValue()) + ": a listing older than an acknowledged write");
                } else {
                    e.setValue(Set.of(got));
                }
            }
        }

        /** Reads through the store and checks the answer; true when it is one the model allows. */
        boolean readThrough(OpenStore s, MetaKey key) {
            Set<Optional<MetaValue>> now = possible.get(key);
            Optional<MetaValue> got;
            try {
                got = s.store.get(key);
            } catch (RuntimeException e) {
                record(s + " get " + key + " => " + e);
                violation(s + " failed a read in " + phase() + ": " + e);
                return false;
            }
            record(s + " get " + key + " => " + text(got));
            count("read " + s.mode);
            if (!now.contains(got)) {
                violation(
                        s + " read " + key + " as " + text(got) + ", but acknowledged writes leave one of " + texts(now)
                                + ": a store serves a value older than an acknowledged write it could see (or a write was undone)"
                                + (s.mode == DynamoLayoutMode.DUAL && s.v2Authority() && !marker
                                        ? " (issue 22 item 2: a store on the v2 authority after a rollback)"
                                        : ""));
                return false;
            }
            possible.put(key, Set.of(got));
            return true;
        }

        // ---- the migrator ----------------------------------------------------------------------

        DynamoMigration migration(MigrationHooksCrash crash) {
            migratorActed = true;
            if (crash == null && migration != null) {
                return migration;
            }
            DynamoMigration.Builder b = DynamoMigration.builder()
                    .client(client)
                    .legacyTableName(legacy)
                    .tableName(table)
                    .shardCount(SHARDS)
                    .createTableIfMissing(true);
            if (clock != null) {
                b.ticker(ticker());
            }
            if (crash != null) {
                b.raceHooks(crash);
            }
            DynamoMigration m = b.build();
            v2TableExists = true;
            protocolStarted = true;
            if (crash == null) {
                migration = m; // one operator's process; a killed one is built anew each time
            }
            return m;
        }

        void backfillPage() {
            if (roundPages == 0 && random.nextInt(4) != 0) {
                closeV1Stores(); // the runbook: the rollout to DUAL completes before the backfill (step 3)
            }
            int size = 1 + random.nextInt(12);
            BackfillPage page;
            try {
                page = migration(null).backfillPage(size);
            } catch (RuntimeException e) {
                record("backfill page of " + size + " in " + phase() + " => "
                        + e.getClass().getSimpleName() + ": " + firstLine(e));
                count("backfill " + e.getClass().getSimpleName());
                if (e instanceof CopiesDivergedException) {
                    violation(
                            "the backfill stopped on diverged copies, but nothing wrote one table by hand (issue 22 item 6): "
                                    + e.getMessage());
                } else {
                    violation("the backfill failed with an undocumented error in " + phase() + ": " + e);
                }
                return;
            }
            record("backfill page of " + size + " in " + phase() + " => scanned " + page.scanned() + ", copied "
                    + page.copied() + ", equal " + page.alreadyEqual() + ", reloaded " + page.reloaded()
                    + (page.done() ? ", done" : ""));
            count("backfill page");
            if (marker && (page.scanned() > 0 || !page.done())) {
                violation("a backfill page after finalization read or copied (" + page.scanned()
                        + " scanned); the documented" + " answer is done, reading nothing");
            }
            if (page.scanned() > 0 || !page.done()) {
                roundPages++;
            }
            backfillDone = page.done();
        }

        void killBackfillMidPage() {
            int size = 2 + random.nextInt(40);
            String point = random.nextBoolean() ? Backfill.SCANNED : Backfill.GROUP_COPIED;
            MigrationHooksCrash crash = new MigrationHooksCrash(point, 1 + random.nextInt(2));
            try {
                BackfillPage page = migration(crash).backfillPage(size);
                record("backfill page of " + size + " (to be killed at " + point + ") => not reached: "
                        + (page.done() ? "done" : "page"));
                if (page.scanned() > 0 || !page.done()) {
                    roundPages++;
                }
                backfillDone = page.done();
            } catch (SimulatedCrash c) {
                record("backfill page of " + size + " killed at " + point);
                count("backfill killed");
                roundPages++; // the page's copies may have committed
            } catch (CopiesDivergedException e) {
                record("backfill page of " + size + " (to be killed) => " + e);
                violation(
                        "the backfill stopped on diverged copies, but nothing wrote one table by hand (issue 22 item 6): "
                                + e.getMessage());
            } catch (RuntimeException e) {
                record("backfill page of " + size + " (to be killed) => " + e);
                violation("the backfill failed with an undocumented error in " + phase() + ": " + e);
            }
        }

        void finalizeMigration() {
            closeV1Stores();
            runFinalize(null);
        }

        void killFinalize() {
            closeV1Stores();
            List<String> points =
                    List.of(DynamoMigration.BARRIER_INSTALLED, DynamoMigration.VERIFIED, DynamoMigration.PUBLISHED);
            runFinalize(new MigrationHooksCrash(points.get(random.nextInt(points.size())), 1));
        }

        /** A finalize whose marker publication meets a TransactionConflict (nothing applied; issue 22 item 9). */
        void finalizeMeetingAConflictOnPublishing() {
            closeV1Stores();
            server.faults()
                    .arm(Fault.transactionConflict()
                            .onOperation("TransactWriteItems")
                            .onTable(table));
            faultArmed = true;
            record("[fault: the finalize's first transaction meets a TransactionConflict]");
            runFinalize(null);
        }

        void runFinalize(MigrationHooksCrash crash) {
            int size = 1 + random.nextInt(40);
            String what = "finalize (pages of " + size + (crash == null ? "" : ", killed at " + crash.point) + ") in "
                    + phase();
            boolean wasMarker = marker;
            boolean wasBarrier = barrierHeld;
            FinalizeResult result;
            try {
                result = migration(crash).finalizeMigration(size);
            } catch (SimulatedCrash c) {
                record(what + " => killed at " + crash.point);
                count("finalize killed at " + crash.point);
                barrierHeld = true;
                if (crash.point.equals(DynamoMigration.PUBLISHED)) {
                    marker = true;
                    checkParity("after the marker was published");
                }
                return;
            } catch (WriteBarrierException e) {
                record(what + " => WriteBarrierException: " + firstLine(e));
                count("finalize refused: barrier");
                if (!wasBarrier) {
                    violation("finalize refused with a barrier, but none is held");
                } else if (wasMarker) {
                    violation("a finalize re-run after its barrier release failed was refused by its own barrier"
                            + " (the marker names it; issue 22 item 5)");
                }
                return;
            } catch (StoreUnavailableException e) {
                record(what + " => StoreUnavailableException: " + firstLine(e));
                count("finalize unavailable");
                if (!faultArmed) {
                    violation("finalize answered unavailable without any fault: " + e);
                }
                barrierHeld =
                        false; // a store failure lifts the finalizer's own barrier; nothing was published (checked
                // next)
                return;
            } catch (RuntimeException e) {
                record(what + " => " + e);
                violation("finalize failed with an undocumented error in " + phase()
                        + (faultArmed ? " (issue 22 item 9: a TransactionConflict while publishing is retryable)" : "")
                        + ": " + e);
                return;
            }
            record(what + " => " + result.outcome()
                    + result.parity()
                            .map(p -> " (" + p.legacyItems() + " items, " + p.differenceCount() + " differences)")
                            .orElse(""));
            count("finalize " + result.outcome());
            switch (result.outcome()) {
                case FINALIZED:
                    if (wasMarker) {
                        // a re-run that published again: accepted when it released its barrier
                        if (!wasBarrier) {
                            violation(
                                    "finalize answered FINALIZED again although the marker existed and no barrier was held");
                        }
                    }
                    if (!wasMarker && wasBarrier) {
                        violation("finalize answered FINALIZED although a barrier it did not install was held");
                    }
                    if (!wasMarker && Boolean.FALSE.equals(backfillDone)) {
                        violation("finalize answered FINALIZED before the backfill reached the end");
                    }
                    marker = true;
                    barrierHeld = false;
                    checkParity("after FINALIZED");
                    break;
                case ALREADY_FINALIZED:
                    if (!wasMarker) {
                        violation("finalize answered ALREADY_FINALIZED but no marker exists");
                    }
                    if (wasBarrier) {
                        // issue 22 item 5: the marker names the barrier as its publisher's own, so the re-run releases
                        // it
                        barrierHeld = false;
                    }
                    break;
                case BACKFILL_INCOMPLETE:
                    if (wasMarker) {
                        violation("finalize answered BACKFILL_INCOMPLETE although the marker exists");
                    }
                    if (Boolean.TRUE.equals(backfillDone)) {
                        violation("finalize answered BACKFILL_INCOMPLETE although the backfill answered done");
                    }
                    backfillDone = false;
                    break;
                case VERIFICATION_FAILED:
                    // a failed verification resets the cursor (the v2 copy is derived data): backfill and finalize
                    // again
                    roundPages = 0;
                    backfillDone = Boolean.FALSE;
                    boolean explained = v1WriteDuringBackfill || oneTableWritten;
                    v1WriteDuringBackfill = false;
                    if (!explained && !verificationFailureReported) {
                        verificationFailureReported = true;
                        violation(
                                "finalize failed its verification although no store wrote one table alone during the backfill"
                                        + " (issue 22 item 4 after a rollback): "
                                        + result.parity()
                                                .map(ParityReport::toString)
                                                .orElse(""));
                    }
                    break;
                default:
                    violation("finalize answered " + result.outcome());
            }
        }

        void releaseBarrier() {
            Optional<MigrationStatus.Barrier> released;
            try {
                released = migration(null).releaseBarrier();
            } catch (RuntimeException e) {
                record("release barrier => " + e);
                violation("releasing the barrier failed: " + e);
                return;
            }
            record("release barrier in " + phase() + " => " + (released.isPresent() ? "released" : "none"));
            if (released.isPresent() != barrierHeld) {
                violation("release barrier answered " + (released.isPresent() ? "released" : "none")
                        + " but the model says " + (barrierHeld ? "held" : "none"));
            }
            barrierHeld = false;
        }

        void rollback() {
            runRollback(false);
        }

        /** A rollback while a second operator runs release-barrier after its verification (issue 22 item 8). */
        void rollbackWhileTheBarrierIsReleased() {
            runRollback(true);
        }

        void runRollback(boolean releasedUnderIt) {
            int size = 1 + random.nextInt(40);
            String what = "rollback (pages of " + size
                    + (releasedUnderIt ? ", its barrier released after its verification" : "") + ") in " + phase();
            boolean[] released = new boolean[1];
            DynamoMigration other = migration(null);
            io.lake.meta.spi.RaceHooks hooks = point -> {
                if (releasedUnderIt && point.equals(DynamoMigration.ROLLBACK_VERIFIED)) {
                    released[0] = other.releaseBarrier().isPresent();
                }
            };
            RollbackResult result;
            try {
                DynamoMigration.Builder b = DynamoMigration.builder()
                        .client(client)
                        .legacyTableName(legacy)
                        .tableName(table)
                        .shardCount(SHARDS)
                        .raceHooks(hooks);
                if (clock != null) {
                    b.ticker(ticker());
                }
                result = b.build().rollback(size);
            } catch (WriteBarrierException e) {
                record(what + " => WriteBarrierException: " + firstLine(e));
                count("rollback refused: barrier");
                if (!barrierHeld || !marker || horizon) {
                    violation("rollback refused with a barrier in " + phase() + "; the documented answer there is "
                            + (!marker ? "NOT_FINALIZED" : horizon ? "HORIZON_PASSED" : "ROLLED_BACK"));
                }
                return;
            } catch (RuntimeException e) {
                record(what + " => " + e);
                violation("rollback failed with an undocumented error in " + phase() + ": " + e);
                return;
            }
            record(what + " => " + result.outcome());
            count("rollback " + result.outcome());
            RollbackResult.Outcome expected = !marker
                    ? RollbackResult.Outcome.NOT_FINALIZED
                    : horizon
                            ? RollbackResult.Outcome.HORIZON_PASSED
                            : barrierHeld
                                    ? null
                                    : released[0]
                                            ? RollbackResult.Outcome.BARRIER_LOST
                                            : RollbackResult.Outcome.ROLLED_BACK;
            if (expected == null) {
                // a marker left by a finalizer killed before its release, barrier still held: only the barrier refusal
                // is documented
                violation("rollback answered " + result.outcome()
                        + " while a barrier is held; the documented answer is WriteBarrierException");
            } else if (result.outcome() != expected) {
                violation("rollback answered " + result.outcome() + ", expected " + expected + " (issue 22 item 8)");
            }
            if (result.outcome() == RollbackResult.Outcome.ROLLED_BACK) {
                marker = false;
                rolledBack = true;
                roundPages = 0;
                backfillDone = null;
                v1WriteDuringBackfill = false;
                checkParity("after ROLLED_BACK");
            }
        }

        void declareHorizon() {
            if (marker) {
                restartStoresOnTheLegacyAuthority();
            }
            try {
                migration(null).declareRollbackHorizonPassed();
            } catch (DynamoStoreException e) {
                record("declare horizon in " + phase() + " => refused: " + firstLine(e));
                count("horizon refused");
                if (marker) {
                    violation(
                            "declaring the horizon was refused although the migration is finalized: " + e.getMessage());
                }
                return;
            } catch (RuntimeException e) {
                record("declare horizon => " + e);
                violation("declaring the horizon failed with an undocumented error: " + e);
                return;
            }
            record("declare horizon in " + phase() + " => declared");
            count("horizon declared");
            if (!marker) {
                violation("the horizon was declared although the migration is not finalized");
            }
            horizon = true;
        }

        void deleteLegacyTable() {
            client.deleteTable(r -> r.tableName(legacy));
            legacyDeleted = true;
            record("delete the legacy table");
            count("legacy table deleted");
        }

        // ---- checks ----------------------------------------------------------------------------

        void checkAfterStep() {
            Map<MetaKey, MetaValue> authority;
            try {
                authority = marker || legacyDeleted
                        ? scan(new TableScan(client, table, new V2Layout(SHARDS)))
                        : scan(new TableScan(client, legacy, V1Layout.INSTANCE));
            } catch (RuntimeException e) {
                violation("the explorer could not read the authority table: " + e);
                return;
            }
            for (Map.Entry<MetaKey, Set<Optional<MetaValue>>> e : possible.entrySet()) {
                Optional<MetaValue> held = Optional.ofNullable(authority.get(e.getKey()));
                if (!e.getValue().contains(held)) {
                    violation("the authority copy (" + (marker || legacyDeleted ? "v2" : "legacy") + ") of "
                            + e.getKey() + " holds "
                            + text(held) + ", but acknowledged writes leave one of " + texts(e.getValue())
                            + ": an acknowledged write is missing or undone");
                    e.setValue(Set.of(held)); // reported once; the sequence goes on from what the table holds
                }
            }
            if (marker && !horizon && !legacyDeleted) {
                // finalized, horizon not passed: every write keeps both copies, so they are equal after every step
                Map<MetaKey, MetaValue> legacyItems = scan(new TableScan(client, legacy, V1Layout.INSTANCE));
                for (MetaKey k : possible.keySet()) {
                    Optional<MetaValue> v2Copy = Optional.ofNullable(authority.get(k));
                    Optional<MetaValue> legacyCopy = Optional.ofNullable(legacyItems.get(k));
                    if (!v2Copy.equals(legacyCopy) && !divergedKeys.contains(k)) {
                        divergedKeys.add(k);
                        violation("finalized, horizon not passed, but the copies of " + k + " differ: legacy "
                                + text(legacyCopy) + ", v2 " + text(v2Copy));
                    }
                }
            }
            if (v2TableExists && migratorActed) {
                migratorActed = false;
                boolean barrier = migrationRecord(MigrationRecords.BARRIER).isPresent();
                if (barrier != barrierHeld) {
                    violation("a write barrier is " + (barrier ? "held" : "absent") + ", the model says "
                            + (barrierHeld ? "held" : "absent")
                            + (barrier
                                    ? " (issue 22 item 5: a re-run finalize leaves its barrier blocking every dual write)"
                                    : ""));
                    barrierHeld = barrier;
                }
                Optional<MigrationStatus.Completion> completion =
                        migrationRecord(MigrationRecords.COMPLETE).map(MigrationState::completionOf);
                if (completion.isPresent() != marker) {
                    violation("the completion marker is " + (completion.isPresent() ? "present" : "absent")
                            + ", the model says " + (marker ? "present" : "absent"));
                    marker = completion.isPresent();
                }
                if (completion.isPresent() && completion.get().rollbackHorizonPassed() != horizon) {
                    violation("the marker's horizon flag is " + completion.get().rollbackHorizonPassed());
                }
            }
        }

        void checkParity(String when) {
            Map<MetaKey, MetaValue> legacyItems = scan(new TableScan(client, legacy, V1Layout.INSTANCE));
            Map<MetaKey, MetaValue> v2Items = scan(new TableScan(client, table, new V2Layout(SHARDS)));
            if (!legacyItems.equals(v2Items)) {
                List<String> differences = new ArrayList<>();
                for (MetaKey k : possible.keySet()) {
                    if (!Optional.ofNullable(legacyItems.get(k)).equals(Optional.ofNullable(v2Items.get(k)))) {
                        differences.add(k + ": legacy " + text(Optional.ofNullable(legacyItems.get(k))) + ", v2 "
                                + text(Optional.ofNullable(v2Items.get(k))));
                    }
                }
                violation("the two tables differ " + when + ": " + differences);
            } else {
                count("parity checked");
            }
        }

        Map<MetaKey, MetaValue> scan(TableScan scan) {
            Map<MetaKey, MetaValue> items = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
            Map<String, AttributeValue> start = null;
            do {
                TableScan.ScanPage page = scan.page(1000, start);
                page.items().forEach(i -> items.put(i.key(), i.value()));
                start = page.next().orElse(null);
            } while (start != null);
            return items;
        }

        /** One of the migration's records in the v2 table, read straight through the client. */
        Optional<Map<String, AttributeValue>> migrationRecord(String which) {
            var item = client.getItem(
                    r -> r.tableName(table).key(MigrationRecords.v2Key(which)).consistentRead(true));
            return item.hasItem() && !item.item().isEmpty() ? Optional.of(item.item()) : Optional.empty();
        }

        boolean tableExists(String name) {
            try {
                client.describeTable(r -> r.tableName(name));
                return true;
            } catch (ResourceNotFoundException e) {
                return false;
            }
        }

        String phase() {
            if (legacyDeleted) {
                return "[legacy table deleted]";
            }
            StringBuilder b = new StringBuilder("[");
            b.append(
                    !protocolStarted
                            ? "before DUAL"
                            : horizon ? "horizon passed" : marker ? "finalized" : "dual, legacy authority");
            if (barrierHeld) {
                b.append(", barrier held");
            }
            if (protocolStarted && !marker) {
                b.append(", backfill ")
                        .append(backfillDone == null ? "unknown" : backfillDone ? "done" : roundPages + " pages");
            }
            return b.append(']').toString();
        }
    }

    /** Throws {@link SimulatedCrash} at the {@code nth} time the migration reaches {@code point}. */
    static final class MigrationHooksCrash implements io.lake.meta.spi.RaceHooks {
        final String point;
        private int remaining;

        MigrationHooksCrash(String point, int nth) {
            this.point = point;
            this.remaining = nth;
        }

        @Override
        public void reached(String reached) {
            if (reached.equals(point) && --remaining == 0) {
                throw new SimulatedCrash(point);
            }
        }
    }

    static String text(Optional<MetaValue> v) {
        return v.map(MetaValue::asUtf8).orElse("absent");
    }

    static String texts(Set<Optional<MetaValue>> vs) {
        List<String> out = new ArrayList<>();
        vs.forEach(v -> out.add(text(v)));
        return out.toString();
    }

    static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        return m.length() > 160 ? m.substring(0, 160) + "..." : m;
    }
}
