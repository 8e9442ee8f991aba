package io.lake.meta.reliability.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.lake.meta.Condition;
import io.lake.meta.GuardedMutation;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.postgres.PostgresMetaStore;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Every {@code MetaStore} method on the model, RocksDB, DynamoDB (in-process) and PostgreSQL, fed hostile
 * calls by QuickTheories: null arguments, batch reads with nulls, repeats or past 10 000 keys,
 * keys and prefixes of hostile text, limits past their edges, and page tokens that are random,
 * truncated, bit-flipped, padded, non-canonical base64, standard instead of URL base64, from
 * another prefix, from another backend or shard count. Each call succeeds or is refused with the
 * contract's typed error; a refused call changes nothing — the model's snapshot; on RocksDB the
 * seeded keys and the live WAL file, which a refused call must not append to (the directory's
 * other files come and go with background flushes of earlier writes); the DynamoDB table's request
 * count (refused before any I/O); the PostgreSQL table's rows — stays as it was. Writes of keys at exactly 1 024 bytes and values at exactly 256 KiB must
 * apply and read back byte for byte (then they are deleted again).
 *
 * <p>Sizes: {@code -Dlake.meta.reliability.storeCalls=N} on the model (RocksDB a half, DynamoDB
 * a tenth).
 */
class StoreHostileTest {

    private static final List<MetaKey> SEEDED = List.of(
            MetaKey.of("tbl/a"),
            MetaKey.of("tbl/a#b"),
            MetaKey.of("tbl/x/y"),
            MetaKey.of("tbl/z"),
            MetaKey.of("tbl/\u00E9"),
            MetaKey.of("lease/l"),
            MetaKey.of("rel/r1"),
            MetaKey.of("rel/r2"));
    private static final KeyPrefix TBL = KeyPrefix.of("tbl/");

    @TempDir
    Path work;

    /** One hostile call, as data; {@link Run#call} turns it into a call on the store. */
    record StoreCall(int kind, String a, String b, int limit, int variant) {}

    @Test
    void model_refusesHostileCalls_andChangesNothing() {
        int calls = Runs.size("storeCalls", 6_000, 200_000);
        try (InMemoryMetaStore store = InMemoryMetaStore.create()) {
            String foreign;
            try (MetaStore rocks = RocksDbMetaStore.builder()
                    .directory(work.resolve("foreign"))
                    .build()) {
                foreign = tokenOf(rocks);
            }
            run("hostile-store-model", store, calls, () -> store.snapshot().toString(), foreign);
        }
    }

    @Test
    void rocksDb_refusesHostileCalls_andChangesNothingOnDisk() {
        int calls = Runs.size("storeCalls", 6_000, 200_000) / 2;
        Path dir = work.resolve("rocks");
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build();
                InMemoryMetaStore model = InMemoryMetaStore.create()) {
            run("hostile-store-rocksdb", store, calls, () -> liveWal(dir) + " " + readBack(store), tokenOf(model));
        }
    }

    @Test
    void dynamoDb_refusesHostileCalls_beforeAnyRequest() {
        DynamoDbTestServer server = DynamoStores.target().requireInProcessServer();
        int calls = Runs.size("storeCalls", 6_000, 200_000) / 10;
        try (DynamoDbClient client = DynamoStores.target().newClient();
                MetaStore store = DynamoStores.newStore(client, "hostile", 4);
                MetaStore otherShards = DynamoStores.newStore(client, "hostile-other", 2)) {
            String foreign = tokenOf(otherShards);
            String table = DynamoStores.tableOf(store);
            run(
                    "hostile-store-dynamodb",
                    store,
                    calls,
                    () -> "requests="
                            + server.statistics().table(table).requests().values().stream()
                                    .mapToLong(Long::longValue)
                                    .sum(),
                    foreign);
        }
    }

    @Test
    void postgres_refusesHostileCalls_andChangesNothingInTheTable() throws Exception {
        int calls = Runs.size("storeCalls", 6_000, 200_000) / 10;
        try (PostgresTestTarget.TestDatabase database =
                        PostgresTestTarget.shared().newDatabase("hostile");
                MetaStore store = PostgresMetaStore.builder()
                        .dataSource(database.pool())
                        .table("hostile")
                        .createTableIfMissing(true)
                        .build();
                InMemoryMetaStore model = InMemoryMetaStore.create()) {
            run("hostile-store-postgres", store, calls, () -> tableDigest(database.pool(), "hostile"), tokenOf(model));
        }
    }

    /** Every row of {@code table}, as one digest of keys and value digests in key order. */
    private static String tableDigest(javax.sql.DataSource pool, String table) {
        try (java.sql.Connection connection = pool.getConnection();
                java.sql.Statement statement = connection.createStatement();
                java.sql.ResultSet rows =
                        statement.executeQuery("SELECT count(*), md5(coalesce(string_agg(encode(k, 'hex')"
                                + " || ':' || md5(v), ',' ORDER BY k), '')) FROM " + table)) {
            rows.next();
            return "rows=" + rows.getLong(1) + " md5=" + rows.getString(2);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("could not read table " + table, e);
        }
    }

    /**
     * The live WAL file and its size: a refused call appends nothing to it. (The boundary writes
     * fill memtables, so RocksDB flushes and compacts in the background, creating and removing
     * files at moments no call controls; a WAL switched by such a flush is not a change.)
     */
    private static String liveWal(Path dir) {
        try (var files = java.nio.file.Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .map(p -> p.getFileName().toString())
                    .max(java.util.Comparator.naturalOrder())
                    .map(name -> {
                        try {
                            return "wal " + name + "=" + java.nio.file.Files.size(dir.resolve(name));
                        } catch (java.io.IOException e) {
                            return "wal switching=0";
                        }
                    })
                    .orElse("no wal");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** What the seeded keys hold, read through the store. */
    private static String readBack(MetaStore store) {
        return store.getAll(SEEDED).toString();
    }

    private static final java.util.regex.Pattern WAL =
            java.util.regex.Pattern.compile("wal ([^=]+)=(\\d+) (.*)", java.util.regex.Pattern.DOTALL);

    /** Whether two states are the same but for a WAL the background switched (see {@link #liveWal}). */
    static boolean sameState(String before, String after) {
        if (before.equals(after)) {
            return true;
        }
        java.util.regex.Matcher b = WAL.matcher(before);
        java.util.regex.Matcher a = WAL.matcher(after);
        if (!b.matches() || !a.matches()) {
            return false;
        }
        return !b.group(1).equals(a.group(1)) && b.group(3).equals(a.group(3));
    }

    /** A continuation token for {@code tbl/} from {@code store}, after seeding it. */
    private static String tokenOf(MetaStore store) {
        seed(store);
        return store.page(TBL, 1).nextToken().orElseThrow();
    }

    private static void seed(MetaStore store) {
        for (MetaKey key : SEEDED) {
            if (store.get(key).isEmpty()) {
                store.create(key, MetaValue.utf8("seed " + key));
            }
        }
    }

    private void run(String area, MetaStore store, int calls, Supplier<String> snapshot, String foreignToken) {
        long seed = Runs.seed(area);
        seed(store);
        Run run = new Run(store, snapshot, foreignToken, new Random(seed));
        Gen<StoreCall> gen = Generate.range(0, 9)
                .zip(
                        HostileGens.text(),
                        HostileGens.text(),
                        HostileGens.limits(),
                        Generate.range(0, 11),
                        StoreCall::new);
        qt().withFixedSeed(seed)
                .withExamples(calls)
                .withShrinkCycles(0)
                .forAll(gen)
                .checkAssert(run::call);
        Runs.figures(area, run.verdicts.figures() + ", boundary writes read back=" + run.boundaryWrites);
        assertThat(run.verdicts.untypedExamples())
                .as("untyped errors (seed above)")
                .isEmpty();
        assertThat(run.verdicts.stateChangeExamples())
                .as("refused calls that changed the store (seed above)")
                .isEmpty();
    }

    private static final class Run {
        final MetaStore store;
        final Supplier<String> snapshot;
        final String foreignToken;
        final Random random;
        final Verdicts verdicts = new Verdicts();
        final String realToken;
        final String otherPrefixToken;
        String before;
        long boundaryWrites;

        Run(MetaStore store, Supplier<String> snapshot, String foreignToken, Random random) {
            this.store = store;
            this.snapshot = snapshot;
            this.foreignToken = foreignToken;
            this.random = random;
            this.realToken = store.page(TBL, 1).nextToken().orElseThrow();
            this.otherPrefixToken =
                    store.page(KeyPrefix.of("rel/"), 1).nextToken().orElseThrow();
            this.before = snapshot.get();
        }

        void call(StoreCall c) {
            String what = describe(c);
            boolean refused = verdicts.run(what, Verdicts.CONTRACT, () -> invoke(c));
            String after = snapshot.get();
            if (refused && !sameState(before, after)) {
                verdicts.stateChanged(what, "before " + Verdicts.show(before) + ", after " + Verdicts.show(after));
            }
            before = after;
        }

        private Object invoke(StoreCall c) {
            MetaKey key = ValueObjectsHostileTest.keyOrNull(c.a());
            switch (c.kind()) {
                case 0:
                    return store.get(key);
                case 1:
                    return store.getAll(batch(key, c.variant()));
                case 2:
                    return write(key, c);
                case 3:
                    return c.variant() == 0
                            ? store.transact(null)
                            : store.transact(Transaction.of(
                                    List.of(Condition.holds(key, MetaValue.utf8("never"))),
                                    List.of(Mutation.create(SEEDED.get(0), MetaValue.utf8("never")))));
                case 4:
                    return c.variant() == 0
                            ? store.applyGuarded(null)
                            : store.applyGuarded(new GuardedMutation(
                                    key,
                                    MetaValue.utf8("never"),
                                    Mutation.delete(SEEDED.get(1), MetaValue.utf8("never"))));
                case 5:
                    return c.variant() == 0
                            ? store.page(null)
                            : store.page(ValueObjectsHostileTest.prefixOrNull(c.a()), c.limit());
                case 6:
                    return store.page(PageRequest.first(ValueObjectsHostileTest.prefixOrNull(c.a()), c.limit()));
                default:
                    return store.page(
                            PageRequest.after(c.variant() == 5 ? KeyPrefix.of("tbl/x/") : TBL, token(c), c.limit()));
            }
        }

        private List<MetaKey> batch(MetaKey key, int variant) {
            switch (variant % 4) {
                case 0:
                    return null;
                case 1:
                    return Arrays.asList(SEEDED.get(0), null);
                case 2:
                    return List.of(SEEDED.get(0), SEEDED.get(0));
                default:
                    List<MetaKey> many = new ArrayList<>();
                    for (int i = 0; i <= Limits.MAX_BATCH_KEYS; i++) {
                        many.add(MetaKey.of("tbl/b" + i));
                    }
                    if (key != null) {
                        many.set(0, key);
                    }
                    return many;
            }
        }

        /** A null mutation; a stale update (a conflict, nothing moves); or a boundary write, read back and deleted. */
        private Object write(MetaKey key, StoreCall c) {
            if (c.variant() == 0) {
                return store.apply(null);
            }
            if (key == null || c.variant() < 6) {
                return store.apply(Mutation.update(
                        key == null ? SEEDED.get(2) : key, MetaValue.utf8("never"), MetaValue.utf8("x")));
            }
            MetaKey boundary =
                    MetaKey.of("tbl/" + "k".repeat(Limits.MAX_KEY_BYTES - 4 - 1) + (char) ('a' + c.variant()));
            byte[] bytes = new byte[Limits.MAX_VALUE_BYTES];
            random.nextBytes(bytes);
            MetaValue value = MetaValue.of(bytes);
            if (!store.create(boundary, value).isApplied()
                    || !store.get(boundary).equals(Optional.of(value))
                    || !store.delete(boundary, value).isApplied()) {
                verdicts.untyped(
                        "boundary write of " + boundary.utf8Length() + "-byte key", "did not apply and read back");
            }
            boundaryWrites++;
            return null;
        }

        private String token(StoreCall c) {
            String t = realToken;
            switch (c.variant()) {
                case 0:
                    return c.b();
                case 1:
                    return t.substring(0, random.nextInt(t.length()));
                case 2: {
                    byte[] raw = Base64.getUrlDecoder().decode(t);
                    raw[random.nextInt(raw.length)] ^= (byte) (1 << random.nextInt(8));
                    return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
                }
                case 3:
                    return t + "=".repeat(1 + random.nextInt(2));
                case 4: {
                    // the same bytes with the last character's unused bits set: non-canonical base64
                    char last = t.charAt(t.length() - 1);
                    int index = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(last);
                    int unusedBits = (t.length() % 4 == 2) ? 4 : (t.length() % 4 == 3) ? 2 : 0;
                    if (unusedBits == 0) {
                        return t + "A";
                    }
                    int flipped = index | (1 << random.nextInt(unusedBits));
                    return t.substring(0, t.length() - 1)
                            + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                                    .charAt(flipped == index ? index ^ 1 : flipped);
                }
                case 5:
                    return t; // issued for tbl/, used with tbl/x/
                case 6:
                    return foreignToken;
                case 7:
                    return Base64.getEncoder()
                            .encodeToString(Base64.getUrlDecoder().decode(t));
                case 8:
                    return otherPrefixToken;
                case 9:
                    return t + t.charAt(0);
                default:
                    return t; // the real token: must work
            }
        }

        private static String describe(StoreCall c) {
            return "call " + c.kind() + "/" + c.variant() + "(" + Verdicts.show(c.a()) + ", " + Verdicts.show(c.b())
                    + ", limit " + c.limit() + ")";
        }
    }
}
