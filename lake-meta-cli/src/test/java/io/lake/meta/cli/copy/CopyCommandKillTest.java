package io.lake.meta.cli.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.cli.store.PostgresCliDatabase;
import io.lake.meta.cli.store.PostgresStoreSpec;
import io.lake.meta.postgres.PostgresMetaStore;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lake-meta copy} in a child JVM, killed with SIGKILL once its resume record shows keys
 * copied, then run again: it resumes and the verification is equal, with every key created once.
 * The store is {@link StoreCopyScaleTest#KEYS} keys (2 000 by default, 100 000 with -Ptorture).
 */
class CopyCommandKillTest {

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
    void sigkilledCopy_isFinishedByARerun_withEveryKeyCreatedOnce() throws Exception {
        int keys = StoreCopyScaleTest.KEYS;
        Path source = directory.resolve("source");
        try (MetaStore store = RocksDbMetaStore.builder().directory(source).createIfMissing(true).build()) {
            StoreCopyTest.fill(store, keys);
        }
        String target = "postgres:" + url + "#copy_kill";
        List<String> args = List.of("copy", "--from", "rocks:" + source, "--to", target, "--prefix", "tbl/",
                "--prefix", "lease/", "--prefix", "ops/", "--prefix", "cnt/", "--page-size", "10", "--json");

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LakeMetaCommand.class.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(directory.resolve("child.log").toFile());
        builder.environment().put(PostgresStoreSpec.USER_VARIABLE, "postgres");
        Process child = builder.start();
        MetaKey record = MetaKey.of("lake-meta-copy/resume");
        long copiedAtKill;
        try (MetaStore watcher = PostgresMetaStore.builder().dataSource(database.pool()).table("copy_kill")
                .createTableIfMissing(true).build()) {
            // wait for the child's first pages, then kill it wherever it is
            Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
            Optional<MetaValue> seen = Optional.empty();
            while (Instant.now().isBefore(deadline) && child.isAlive()
                    && (seen = watcher.get(record)).map(v -> copied(v) < 50).orElse(true)) {
                Thread.sleep(10);
            }
            child.destroyForcibly(); // SIGKILL
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            Optional<MetaValue> afterKill = watcher.get(record);
            assertThat(afterKill).as("the child was killed mid-copy (it had not finished): %s", seen).isPresent();
            copiedAtKill = copied(afterKill.get());
        }
        assertThat(copiedAtKill).isBetween(50L, (long) keys - 1);

        Cli.Run rerun = Cli.run(args.toArray(String[]::new));
        assertThat(rerun.exitCode()).as(rerun.toString()).isZero();
        assertThat(rerun.out()).contains("\"resumed\":true").contains("\"copied\":" + keys + ",")
                .contains("\"alreadyEqual\":0").contains("\"equal\":true")
                .contains("\"sourceKeys\":" + keys + ",").contains("\"targetKeys\":" + keys + ",");
        System.out.printf("copy-kill: %d keys, SIGKILL after %d copied; the rerun: %s%n", keys, copiedAtKill,
                rerun.out().strip());
    }

    private static long copied(MetaValue record) {
        return Long.parseLong(record.asUtf8().replaceAll(".*\"copied\":(\\d+).*", "$1"));
    }
}
