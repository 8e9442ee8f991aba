package io.lake.meta.cli.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.store.PostgresCliDatabase;
import io.lake.meta.cli.store.PostgresStoreSpec;
import io.lake.meta.postgres.PostgresMetaStore;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lake-meta copy} from a RocksDB directory to a PostgreSQL table: output, --json, refusal, --verify-only. */
class CopyCommandTest {

    private static final String NL = System.lineSeparator();
    private static PostgresCliDatabase postgres;
    private static PostgresTestTarget.TestDatabase database;
    private static String url;

    @TempDir
    Path directory;

    @BeforeAll
    static void openDatabase() {
        postgres = PostgresCliDatabase.open("copycli", Map.of(PostgresStoreSpec.USER_VARIABLE, "postgres"));
        database = postgres.database;
        url = postgres.url;
    }

    @AfterAll
    static void closeDatabase() {
        postgres.close();
    }

    private Path sourceWith(int keys) {
        Path source = directory.resolve("source");
        try (MetaStore store = RocksDbMetaStore.builder()
                .directory(source)
                .createIfMissing(true)
                .build()) {
            for (int i = 0; i < keys; i++) {
                store.create(MetaKey.of((i % 2 == 0 ? "tbl" : "lease") + "/k" + i), MetaValue.utf8("v" + i));
            }
        }
        return source;
    }

    /**
     * The test's standard streams are no terminal: progress comes as log lines, never redrawn in
     * place. (From JDK 22 on, {@code System.console()} answers a console without a terminal.)
     */
    @Test
    void progress_withoutATerminal_isLoggedInLines_neverRedrawn() {
        Path source = sourceWith(10);
        Cli.Run copy = Cli.run(
                "copy",
                "--from",
                "rocks:" + source,
                "--to",
                "rocks:" + directory.resolve("target"),
                "--prefix",
                "tbl/");
        assertThat(copy.exitCode()).as(copy.toString()).isZero();
        assertThat(copy.err()).as(copy.toString()).doesNotContain("\r");
    }

    @Test
    void copy_printsCountsDigestsAndEquality_thenVerifyOnlyAgrees() {
        Path source = sourceWith(30);
        String target = "postgres:" + url + "#copy_plain";
        Cli.Run copy = Cli.run(
                "copy",
                "--from",
                "rocks:" + source,
                "--to",
                target,
                "--prefix",
                "tbl/",
                "--prefix",
                "lease/",
                "--page-size",
                "7");
        assertThat(copy.exitCode()).as(copy.toString()).isZero();
        assertThat(copy.out()).startsWith("copied 30 keys in ");
        assertThat(copy.out()).contains("verified: equal both ways" + NL);
        String digest = copy.out()
                .lines()
                .filter(l -> l.startsWith("source: "))
                .findFirst()
                .orElseThrow()
                .replace("source: ", "");
        assertThat(copy.out()).contains("target: " + digest);

        Cli.Run verify = Cli.run(
                "copy",
                "--from",
                "rocks:" + source,
                "--to",
                target,
                "--prefix",
                "tbl/",
                "--prefix",
                "lease/",
                "--verify-only",
                "--json");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out())
                .contains("\"equal\":true")
                .contains("\"sourceKeys\":30")
                .contains("\"sourceDigest\":\"" + digest.substring(digest.indexOf("sha256 ") + 7) + "\"")
                .doesNotContain("\"copy\"");
    }

    @Test
    void noPrefix_copiesEveryFamilyTheSourceLists_andVerifyOnlyNamesThem() {
        Path source = sourceWith(30);
        String target = "postgres:" + url + "#copy_every_family";
        Cli.Run copy = Cli.run("copy", "--from", "rocks:" + source, "--to", target, "--page-size", "7");
        assertThat(copy.exitCode()).as(copy.toString()).isZero();
        assertThat(copy.out()).startsWith("every family of the source: lease/ tbl/" + NL + "copied 30 keys in ");
        assertThat(copy.out()).contains("verified: equal both ways" + NL);

        Cli.Run verify = Cli.run("copy", "--from", "rocks:" + source, "--to", target, "--verify-only", "--json");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out())
                .contains("\"prefixes\":[\"lease/\",\"tbl/\"]")
                .contains("\"equal\":true")
                .contains("\"sourceKeys\":30")
                .contains("\"targetKeys\":30");
    }

    @Test
    void nonEmptyTarget_isRefusedWithExit3_andADifferenceIsReportedWithIntoNonEmpty() {
        Path source = sourceWith(10);
        String target = "postgres:" + url + "#copy_nonempty";
        try (MetaStore store = PostgresMetaStore.builder()
                .dataSource(database.pool())
                .table("copy_nonempty")
                .createTableIfMissing(true)
                .build()) {
            store.create(MetaKey.of("tbl/k0"), MetaValue.utf8("other"));
        }
        Cli.Run refused = Cli.run("copy", "--from", "rocks:" + source, "--to", target, "--prefix", "tbl/", "--json");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(refused.err()).contains("not empty").contains("tbl/k0");
        assertThat(refused.out()).contains("\"kind\":\"conflict\"");

        Cli.Run into =
                Cli.run("copy", "--from", "rocks:" + source, "--to", target, "--prefix", "tbl/", "--into-non-empty");
        assertThat(into.exitCode()).as(into.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(into.out())
                .contains("copied 4 keys")
                .contains("1 differing left as they were")
                .contains("differing (not overwritten): tbl/k0")
                .contains("value-differs: tbl/k0");
        try (MetaStore store = PostgresMetaStore.builder()
                .dataSource(database.pool())
                .table("copy_nonempty")
                .build()) {
            assertThat(store.get(MetaKey.of("tbl/k0"))).contains(MetaValue.utf8("other"));
            assertThat(store.page(KeyPrefix.family("lake-meta-copy"), 5).entries())
                    .isEmpty();
        }
    }

    @Test
    void badInput_exits2_andCreatesNothing() {
        Path source = sourceWith(2);
        Cli.Run bare = Cli.run(
                "copy", "--from", "rocks:" + source, "--to", "rocks:" + directory.resolve("t"), "--prefix", "tbl");
        assertThat(bare.exitCode()).isEqualTo(ExitCodes.USAGE);
        Cli.Run reserved = Cli.run(
                "copy",
                "--from",
                "rocks:" + source,
                "--to",
                "rocks:" + directory.resolve("t"),
                "--prefix",
                "lake-meta-copy/");
        assertThat(reserved.exitCode()).as(reserved.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(reserved.err()).contains("reserves");
        assertThat(directory.resolve("t")).doesNotExist();
    }

    @Test
    void aSourceOfTooManyFamilies_isRefusedBeforeTheTargetIsCreated() {
        Path source = directory.resolve("many");
        try (MetaStore store = RocksDbMetaStore.builder()
                .directory(source)
                .createIfMissing(true)
                .build()) {
            for (int i = 0; i <= KeyFamilies.MAX_FAMILIES; i++) {
                store.create(MetaKey.of("f" + i + "/k"), MetaValue.utf8("v"));
            }
        }
        Cli.Run run = Cli.run("copy", "--from", "rocks:" + source, "--to", "rocks:" + directory.resolve("t"));
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(run.err()).contains("more than " + KeyFamilies.MAX_FAMILIES + " key families");
        assertThat(directory.resolve("t")).doesNotExist();
    }

    @Test
    void aSourceHoldingAnUnfinishedCopysRecord_isRefusedBeforeTheTargetIsCreated() {
        Path source = sourceWith(4);
        try (MetaStore store = RocksDbMetaStore.builder().directory(source).build()) {
            store.create(MetaKey.of("lake-meta-copy/resume"), MetaValue.utf8("{\"format\":1}"));
        }
        Cli.Run run = Cli.run("copy", "--from", "rocks:" + source, "--to", "rocks:" + directory.resolve("t"));
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.err()).contains("lake-meta-copy");
        assertThat(directory.resolve("t")).doesNotExist();
    }
}
