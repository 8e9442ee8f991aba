package io.lake.meta.cli.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.cli.store.PostgresCliDatabase;
import io.lake.meta.cli.store.PostgresStoreSpec;
import io.lake.meta.postgres.PostgresMetaStore;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import io.lake.meta.watch.Watch;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lake-meta copy} of a RocksDB store (keys in four families) to PostgreSQL in a child JVM,
 * killed with SIGKILL about half-way, then run again to the end: it resumes, creates every key
 * once, and the two stores are equal by the command's own verification and by a digest this test
 * takes of each. {@link #KEYS}: 5 000 (seeded values) in the default build, the 100 000
 * with {@code -Ptorture} (or {@code -Dlake.meta.copy.scale.keys=N}, at least 5 000).
 *
 * <p>No sleep decides when to kill: the resume record, which moves in the same transaction as the
 * keys it covers, is watched (a PostgreSQL watch polls every 10 ms), and the child is killed on the
 * first value that counts at least {@link #KILL_FROM} of the keys copied; the record then read
 * must count at most {@link #KILL_BY}, and so must the target.
 */
class CopyCommandKillTest {

    static final int KEYS = Math.max(5_000, StoreCopyScaleTest.KEYS);
    static final long KILL_FROM = KEYS * 2L / 5;
    static final long KILL_BY = KEYS * 3L / 5;
    private static final MetaKey RESUME_RECORD = MetaKey.of("lake-meta-copy/resume");
    private static final JsonMapper JSON = new JsonMapper();

    private static PostgresCliDatabase postgres;
    private static PostgresTestTarget.TestDatabase database;
    private static String url;

    @TempDir
    Path directory;

    @BeforeAll
    static void openDatabase() {
        postgres = PostgresCliDatabase.open("copykill", Map.of(PostgresStoreSpec.USER_VARIABLE, "postgres"));
        database = postgres.database;
        url = postgres.url;
    }

    @AfterAll
    static void closeDatabase() {
        postgres.close();
    }

    @Test
    void copySigkilledHalfWay_isFinishedByARerun_withEveryKeyCreatedOnce_andEqualDigests() throws Exception {
        long started = System.nanoTime();
        Path source = directory.resolve("source");
        try (MetaStore store = RocksDbMetaStore.builder()
                .directory(source)
                .createIfMissing(true)
                .build()) {
            StoreCopyTest.fill(store, KEYS);
        }
        long filled = System.nanoTime();
        List<String> args = List.of(
                "copy",
                "--from",
                "rocks:" + source,
                "--to",
                "postgres:" + url + "#copy_kill",
                "--prefix",
                "tbl/",
                "--prefix",
                "lease/",
                "--prefix",
                "ops/",
                "--prefix",
                "cnt/",
                "--json");

        long copiedAtKill;
        try (MetaStore target = PostgresMetaStore.builder()
                .dataSource(database.pool())
                .table("copy_kill")
                .createTableIfMissing(true)
                .pollInterval(PostgresMetaStore.MIN_POLL_INTERVAL)
                .build()) {
            killAboutHalfWay(args, target);
            copiedAtKill = copiedAfterTheKill(target);
            assertThat(copiedAtKill).as("the record after the kill").isBetween(KILL_FROM, KILL_BY);
        }
        long killed = System.nanoTime();

        Cli.Run rerun = Cli.run(args.toArray(String[]::new));
        long rerunDone = System.nanoTime();
        assertThat(rerun.exitCode()).as(rerun.toString()).isZero();
        JsonNode report = JSON.readTree(rerun.out());
        assertThat(report.at("/copy/resumed").asBoolean()).isTrue();
        assertThat(report.at("/copy/copied").asLong())
                .as("copied across both runs")
                .isEqualTo(KEYS);
        assertThat(report.at("/copy/alreadyEqual").asLong())
                .as("a key created twice is found equal")
                .isZero();
        assertThat(report.at("/copy/differing").asLong()).isZero();
        assertThat(report.at("/verification/equal").asBoolean()).isTrue();
        assertThat(report.at("/verification/sourceKeys").asLong()).isEqualTo(KEYS);
        assertThat(report.at("/verification/targetKeys").asLong()).isEqualTo(KEYS);
        assertThat(report.at("/verification/targetDigest").asText())
                .isEqualTo(report.at("/verification/sourceDigest").asText());

        String sourceDigest;
        try (MetaStore store = RocksDbMetaStore.builder().directory(source).build()) {
            sourceDigest = digest(store);
        }
        try (MetaStore target = PostgresMetaStore.builder()
                .dataSource(database.pool())
                .table("copy_kill")
                .build()) {
            assertThat(digest(target))
                    .as("the target's entries, key by key in order")
                    .isEqualTo(sourceDigest);
            assertThat(target.get(RESUME_RECORD))
                    .as("the resume record, deleted at the end")
                    .isEmpty();
        }
        System.out.printf(
                "copy-kill: %d keys in %d families filled in %d ms; SIGKILL after %d copied (%d ms); the"
                        + " rerun (copy and verification) %d ms; sha256 of the entries in order %s; the command's: %s%n",
                KEYS,
                StoreCopyTest.FAMILIES.size(),
                (filled - started) / 1_000_000,
                copiedAtKill,
                (killed - filled) / 1_000_000,
                (rerunDone - killed) / 1_000_000,
                sourceDigest,
                report.at("/verification/sourceDigest").asText());
    }

    /** Runs the copy in a child JVM and kills it with SIGKILL once the resume record counts {@link #KILL_FROM} keys copied. */
    private void killAboutHalfWay(List<String> args, MetaStore target) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LakeMetaCommand.class.getName()));
        command.addAll(args);
        Path log = directory.resolve("child.log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put(PostgresStoreSpec.USER_VARIABLE, "postgres");
        // the record's values as the watch sees them; empty once the child exited on its own
        BlockingQueue<Optional<MetaValue>> records = new LinkedBlockingQueue<>();
        try (Watch watch = target.watch(
                KeyPrefix.family("lake-meta-copy"),
                event -> event.value().ifPresent(value -> records.add(Optional.of(value))))) {
            Process child = builder.start();
            child.onExit().thenRun(() -> records.add(Optional.empty()));
            try {
                while (true) {
                    Optional<MetaValue> record = records.poll(10, TimeUnit.MINUTES);
                    assertThat(record)
                            .as("the child's progress within 10 minutes")
                            .isNotNull();
                    assertThat(record)
                            .as(
                                    "the child exited (exit %s) before copying %d keys: %s",
                                    child.isAlive() ? "-" : child.exitValue(), KILL_FROM, Files.readString(log))
                            .isPresent();
                    if (copied(record.get()) >= KILL_FROM) {
                        break;
                    }
                }
            } finally {
                child.destroyForcibly(); // SIGKILL
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
        }
    }

    /**
     * What the resume record counts after the kill, checked against the keys in the target. A
     * commit the server received before the SIGKILL may still land, once: a count the record moved
     * across is taken again.
     */
    private static long copiedAfterTheKill(MetaStore target) throws Exception {
        for (int attempt = 0; ; attempt++) {
            Optional<MetaValue> before = target.get(RESUME_RECORD);
            assertThat(before)
                    .as("the child was killed mid-copy, not after it finished")
                    .isPresent();
            long keys = count(target);
            if (before.equals(target.get(RESUME_RECORD))) {
                assertThat(keys)
                        .as("keys in the target: those the record counts")
                        .isEqualTo(copied(before.get()));
                return copied(before.get());
            }
            assertThat(attempt)
                    .as("the record moved after the kill more than once")
                    .isZero();
        }
    }

    private static long copied(MetaValue record) throws Exception {
        return JSON.readTree(record.toByteArray()).get("copied").asLong();
    }

    private static long count(MetaStore store) {
        long keys = 0;
        for (KeyPrefix family : StoreCopyTest.FAMILIES) {
            for (Page page = store.page(PageRequest.first(family, 1_000)); ; ) {
                keys += page.entries().size();
                if (page.nextToken().isEmpty()) {
                    break;
                }
                page = store.page(PageRequest.after(family, page.nextToken().get(), 1_000));
            }
        }
        return keys;
    }

    /** SHA-256 of every entry of the four families (key length, key, value length, value), in page order. */
    private static String digest(MetaStore store) throws Exception {
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        long entries = 0;
        for (KeyPrefix family : StoreCopyTest.FAMILIES) {
            for (Page page = store.page(PageRequest.first(family, 1_000)); ; ) {
                for (Entry entry : page.entries()) {
                    byte[] key = entry.key().utf8();
                    byte[] value = entry.value().toByteArray();
                    sha256.update(ByteBuffer.allocate(4).putInt(key.length).array());
                    sha256.update(key);
                    sha256.update(ByteBuffer.allocate(4).putInt(value.length).array());
                    sha256.update(value);
                    entries++;
                }
                if (page.nextToken().isEmpty()) {
                    break;
                }
                page = store.page(PageRequest.after(family, page.nextToken().get(), 1_000));
            }
        }
        assertThat(entries).isEqualTo(KEYS);
        return HexFormat.of().formatHex(sha256.digest());
    }
}
