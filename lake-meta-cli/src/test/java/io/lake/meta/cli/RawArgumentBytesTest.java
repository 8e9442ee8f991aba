package io.lake.meta.cli;

import static io.lake.meta.cli.ChildCli.bytes;
import static io.lake.meta.cli.ChildCli.word;
import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.PageRequest;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The real command in a child JVM, given argument bytes that are not UTF-8. The JVM decodes argv
 * before {@code main} runs and turns such bytes into U+FFFD; the command must refuse them
 * instead of writing or reading another key or value than the bytes named.
 */
class RawArgumentBytesTest {

    private static final String UTF8 = "C.UTF-8";

    @TempDir
    Path temp;

    private Path db;

    @BeforeEach
    void createStore() {
        db = temp.resolve("db");
        try (MetaStore store = RocksDbMetaStore.builder().directory(db).build()) {
            store.create(MetaKey.of("tbl/k"), MetaValue.utf8("v1"));
        }
    }

    @Test
    void keyWithASurrogateEncoding_isRefused_andNothingIsCreated() throws Exception {
        Path fresh = temp.resolve("fresh");

        Cli.Run run = lakeMeta(
                UTF8,
                "put",
                "--store",
                word("rocks:" + fresh),
                "--create-store",
                bytes("tbl/bad\\xed\\xa0\\x80"),
                "v1");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .as(run.toString())
                .startsWith("lake-meta put: argument 5 (tbl/bad\\xed\\xa0\\x80) is not valid UTF-8 text")
                .contains("--hex or --base64");
        assertThat(fresh).doesNotExist();
    }

    @Test
    void twoByteStringsThatDecodeAlike_doNotNameOneKey() throws Exception {
        Cli.Run first = lakeMeta(UTF8, "put", "--store", word("rocks:" + db), bytes("tbl/x\\xff"), "a");
        Cli.Run second = lakeMeta(UTF8, "put", "--store", word("rocks:" + db), bytes("tbl/x\\xfe"), "b");

        assertThat(first.exitCode()).as(first.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(second.exitCode()).as(second.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(keys()).containsExactly("tbl/k");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "VALUE      | put    | --store | rocks:DB | tbl/new       | v\\xc3     |          |",
                "--expect   | put    | --store | rocks:DB | tbl/k         | v2         | --expect | v1\\x80",
                "--prefix   | scan   | --store | rocks:DB | --prefix      | tbl/\\xe9  |          |",
                "get KEY    | get    | --store | rocks:DB | tbl/k\\xc0\\xaf |          |          |",
                "delete KEY | delete | --store | rocks:DB | tbl/k\\xf5   | --expect   | v1       |",
                "store path | get    | --store | rocks:DB\\xff | tbl/k   |            |          |",
            })
    void invalidBytesInAnyArgument_areRefused(
            String role, String command, String a1, String a2, String a3, String a4, String a5, String a6)
            throws Exception {
        List<String> words = new ArrayList<>(List.of(command));
        for (String argument : new String[] {a1, a2, a3, a4, a5, a6}) {
            if (argument != null) {
                words.add(bytes(argument.replace("DB", db.toString())));
            }
        }

        Cli.Run run = lakeMeta(UTF8, words.toArray(String[]::new));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .as(run.toString())
                .startsWith("lake-meta " + command + ": argument ")
                .contains("is not valid UTF-8 text")
                .doesNotContain("\tat ");
        assertThat(run.out()).isEmpty();
        assertThat(keys()).containsExactly("tbl/k");
        try (MetaStore store =
                RocksDbMetaStore.builder().directory(db).createIfMissing(false).build()) {
            assertThat(store.get(MetaKey.of("tbl/k"))).contains(MetaValue.utf8("v1"));
        }
    }

    @Test
    void validNonAsciiText_andATypedReplacementCharacter_areAccepted() throws Exception {
        Cli.Run put = lakeMeta(
                UTF8,
                "put",
                "--store",
                word("rocks:" + db),
                bytes("tbl/caf\\xc3\\xa9"),
                bytes("\\xef\\xbf\\xbd marks a lost character"));
        Cli.Run get = lakeMeta(UTF8, "get", "--store", word("rocks:" + db), bytes("tbl/caf\\xc3\\xa9"));

        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(get.exitCode()).as(get.toString()).isZero();
        assertThat(get.out()).isEqualTo("\uFFFD marks a lost character" + System.lineSeparator());
        assertThat(keys()).containsExactly("tbl/caf\u00e9", "tbl/k");
    }

    @Test
    void nonAsciiTextUnderANonUtf8Locale_isRefusedWithTheFix() throws Exception {
        Cli.Run run = lakeMeta("C", "put", "--store", word("rocks:" + db), bytes("tbl/caf\\xc3\\xa9"), "v");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .as(run.toString())
                .startsWith("lake-meta put: argument 4 (tbl/caf\\xc3\\xa9)")
                .contains("LANG=C.UTF-8");
        assertThat(keys()).containsExactly("tbl/k");
    }

    private Cli.Run lakeMeta(String locale, String... words) throws Exception {
        return ChildCli.run(locale, temp, List.of(words));
    }

    private List<String> keys() {
        try (MetaStore store =
                RocksDbMetaStore.builder().directory(db).createIfMissing(false).build()) {
            return store.page(PageRequest.first(KeyPrefix.of("tbl/"), 100)).entries().stream()
                    .map(entry -> entry.key().toString())
                    .toList();
        }
    }
}
