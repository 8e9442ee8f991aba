package io.lake.meta.reliability.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Opens that must be refused, and must leave the disk (or the table) exactly as it was: every
 * file's name, size and SHA-256 before and after, and the parent directory too (a refused open
 * creates nothing). RocksDB: a regular file; a directory of random junk; a garbage {@code CURRENT};
 * another program's RocksDB; one with another column family; a lake-meta store of another format
 * version; a store whose MANIFEST is gone; a missing or empty directory without
 * {@code createIfMissing}; a directory another open store holds. DynamoDB: hostile table names and
 * shard counts, and an existing table opened with another shard count — refused without one write.
 *
 * <p>Sizes: {@code -Dlake.meta.reliability.refusedOpens=N} (20 by default, 1 000 under {@code -Ptorture}).
 */
class RefusedOpensHostileTest {

    private static final String[] KINDS = {
        "regular file",
        "junk directory",
        "garbage CURRENT",
        "foreign RocksDB",
        "extra column family",
        "other format version",
        "MANIFEST gone",
        "missing, no create",
        "empty, no create",
        "held open"
    };

    @TempDir
    Path work;

    @Test
    void rocksDb_refusedOpens_changeNothingOnDisk() throws Exception {
        long seed = Runs.seed("hostile-refused-opens-rocksdb");
        int opens = Runs.size("refusedOpens", 20, 1_000);
        Random r = new Random(seed);
        RocksDB.loadLibrary();
        Map<String, Integer> byKind = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < opens; i++) {
            int kind = i % KINDS.length;
            Path parent = Files.createDirectories(work.resolve("case-" + i));
            Path dir = parent.resolve("store");
            MetaStore holder = prepare(kind, dir, r);
            DiskSnapshot before = DiskSnapshot.withContents(parent);
            try {
                RocksDbMetaStore.Builder b = RocksDbMetaStore.builder().directory(dir);
                if (kind == 7 || kind == 8) {
                    b.createIfMissing(false);
                }
                try (MetaStore opened = b.build()) {
                    problems.add(KINDS[kind] + ": opened as " + opened);
                } catch (InvalidArgumentException | StoreUnavailableException e) {
                    boolean rightType =
                            kind == 9 ? e instanceof StoreUnavailableException : e instanceof InvalidArgumentException;
                    if (!rightType) {
                        problems.add(KINDS[kind] + ": refused with " + e);
                    }
                } catch (RuntimeException e) {
                    problems.add(KINDS[kind] + ": untyped " + e);
                }
                DiskSnapshot after = DiskSnapshot.withContents(parent);
                if (!after.equals(before)) {
                    problems.add(
                            KINDS[kind] + ": the refused open changed the disk: before " + before + ", after " + after);
                }
            } finally {
                if (holder != null) {
                    holder.close();
                }
            }
            byKind.merge(KINDS[kind], 1, Integer::sum);
            if (problems.size() > 5) {
                break;
            }
        }
        Runs.figures(
                "hostile-refused-opens-rocksdb",
                "refused opens=" + opens + " " + byKind + ", untyped or wrong errors and disk changes="
                        + problems.size());
        assertThat(problems).as("seed above").isEmpty();
    }

    /** Lays out one hostile directory; returns a store holding it open, for the "held open" case. */
    private static MetaStore prepare(int kind, Path dir, Random r) throws Exception {
        switch (kind) {
            case 0 -> Files.write(dir, randomBytes(r, 1 + r.nextInt(4096)));
            case 1 -> {
                Files.createDirectories(dir);
                for (int f = 0, n = 1 + r.nextInt(4); f < n; f++) {
                    Files.write(
                            dir.resolve(new String[] {"junk", "CURRENT.bak", "000001.log", "data.txt"}[f]),
                            randomBytes(r, r.nextInt(2048)));
                }
            }
            case 2 -> {
                Files.createDirectories(dir);
                Files.write(dir.resolve("CURRENT"), randomBytes(r, 1 + r.nextInt(64)));
            }
            case 3 -> {
                try (Options o = new Options().setCreateIfMissing(true);
                        RocksDB db = RocksDB.open(o, dir.toString())) {
                    for (int k = 0, n = 1 + r.nextInt(20); k < n; k++) {
                        db.put(randomBytes(r, 1 + r.nextInt(16)), randomBytes(r, r.nextInt(64)));
                    }
                }
            }
            case 4 -> {
                try (Options o = new Options().setCreateIfMissing(true);
                        RocksDB db = RocksDB.open(o, dir.toString());
                        ColumnFamilyHandle cf = db.createColumnFamily(
                                new ColumnFamilyDescriptor("other".getBytes(StandardCharsets.UTF_8)))) {
                    db.put(cf, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
                }
            }
            case 5 -> {
                try (Options o = new Options().setCreateIfMissing(true);
                        RocksDB db = RocksDB.open(o, dir.toString())) {
                    db.put(
                            "\u0000lake-meta/format".getBytes(StandardCharsets.UTF_8),
                            ("lake-meta-rocks/" + (2 + r.nextInt(90))).getBytes(StandardCharsets.UTF_8));
                    db.put("tbl/k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
                }
            }
            case 6 -> {
                RocksDbMetaStore.builder().directory(dir).build().close();
                try (var files = Files.list(dir)) {
                    for (Path p : files.filter(p -> p.getFileName().toString().startsWith("MANIFEST"))
                            .toList()) {
                        Files.delete(p);
                    }
                }
            }
            case 7 -> {
                // nothing: the directory is missing
            }
            case 8 -> Files.createDirectories(dir);
            default -> {
                return RocksDbMetaStore.builder().directory(dir).build();
            }
        }
        return null;
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    @Test
    void dynamoDb_hostileBuilderOptions_areRefused_withoutAWrite() {
        DynamoDbTestServer server = DynamoStores.target().requireInProcessServer();
        long seed = Runs.seed("hostile-refused-opens-dynamodb");
        Random r = new Random(seed);
        List<String> problems = new ArrayList<>();
        int cases = 0;
        try (DynamoDbClient client = DynamoStores.target().newClient()) {
            MetaStore existing = DynamoStores.newStore(client, "refused", 4);
            String table = DynamoStores.tableOf(existing);
            existing.close();
            String[] names = {null, "", "ab", "x".repeat(256), "bad name!", "t\u00E9", "a/b", "#layout"};
            int[] shards = {Integer.MIN_VALUE, -1, 0, 1025, Integer.MAX_VALUE};
            for (String name : names) {
                cases++;
                expectRefused(
                        problems,
                        "tableName(" + Verdicts.show(name) + ")",
                        () -> DynamoMetaStore.builder()
                                .client(client)
                                .tableName(name)
                                .createTableIfMissing(true)
                                .build());
            }
            for (int s : shards) {
                cases++;
                expectRefused(
                        problems,
                        "shardCount(" + s + ")",
                        () -> DynamoMetaStore.builder()
                                .client(client)
                                .tableName(DynamoStores.target().uniqueTableName("refused"))
                                .shardCount(s)
                                .createTableIfMissing(true)
                                .build());
            }
            cases++;
            expectRefused(
                    problems, "client(null)", () -> DynamoMetaStore.builder().client(null));
            long writesBefore = writes(server, table);
            for (int i = 0; i < 5; i++) {
                int other = 1 + r.nextInt(1024);
                if (other == 4) {
                    continue;
                }
                cases++;
                expectRefused(
                        problems,
                        "an existing 4-shard table opened with shardCount(" + other + ")",
                        () -> DynamoMetaStore.builder()
                                .client(client)
                                .tableName(table)
                                .shardCount(other)
                                .build());
            }
            if (writes(server, table) != writesBefore) {
                problems.add("a refused open wrote to the table");
            }
        }
        Runs.figures(
                "hostile-refused-opens-dynamodb",
                "refused builder options and opens=" + cases + ", problems=" + problems.size());
        assertThat(problems).as("seed above").isEmpty();
    }

    private static long writes(DynamoDbTestServer server, String table) {
        Map<String, Long> requests = server.statistics().table(table).requests();
        return requests.entrySet().stream()
                .filter(e -> !e.getKey().startsWith("Get")
                        && !e.getKey().startsWith("Describe")
                        && !e.getKey().equals("Query")
                        && !e.getKey().startsWith("BatchGet"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    private static void expectRefused(List<String> problems, String what, Runnable open) {
        try {
            open.run();
            problems.add(what + ": accepted");
        } catch (MetaStoreException | IllegalArgumentException | IllegalStateException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                problems.add(what + ": refused without a message");
            }
        } catch (RuntimeException e) {
            problems.add(what + ": untyped " + e);
        }
    }
}
