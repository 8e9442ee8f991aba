package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectionCommandsTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path temp;

    private String store;

    @BeforeEach
    void createStore() {
        store = "rocks:" + temp.resolve("db");
        Cli.Run created = Cli.run("put", "--store", store, "--create-store", "tbl/sales/orders", "{\"v\":1}");
        assertThat(created.exitCode()).as(created.toString()).isZero();
    }

    @Test
    void roundTrip_putGetScanDelete() {
        assertThat(Cli.run("put", "--store", store, "tbl/sales/refunds", "r1").out())
                .isEqualTo("created tbl/sales/refunds" + NL);

        Cli.Run get = Cli.run("get", "--store", store, "tbl/sales/orders");
        assertThat(get.exitCode()).isZero();
        assertThat(get.out()).isEqualTo("{\"v\":1}" + NL);

        Cli.Run update = Cli.run("put", "--store", store, "tbl/sales/orders", "{\"v\":2}", "--expect", "{\"v\":1}");
        assertThat(update.exitCode()).as(update.toString()).isZero();
        assertThat(update.out()).isEqualTo("updated tbl/sales/orders" + NL);

        Cli.Run scan = Cli.run("scan", "--store", store, "--prefix", "tbl/sales/");
        assertThat(scan.exitCode()).isZero();
        assertThat(scan.out()).isEqualTo("tbl/sales/orders\t{\"v\":2}" + NL + "tbl/sales/refunds\tr1" + NL);

        Cli.Run delete = Cli.run("delete", "--store", store, "tbl/sales/orders", "--expect", "{\"v\":2}");
        assertThat(delete.exitCode()).as(delete.toString()).isZero();
        assertThat(delete.out()).isEqualTo("deleted tbl/sales/orders" + NL);

        assertThat(Cli.run("get", "--store", store, "tbl/sales/orders").exitCode())
                .isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(Cli.run("scan", "--store", store, "--prefix", "tbl/sales/").out())
                .isEqualTo("tbl/sales/refunds\tr1" + NL);
    }

    @Test
    void put_createIsTheDefaultAndExplicit() {
        assertThat(Cli.run("put", "--store", store, "tbl/sales/a", "1", "--create")
                        .exitCode())
                .isZero();

        Cli.Run again = Cli.run("put", "--store", store, "tbl/sales/a", "2", "--create");

        assertThat(again.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(again.err())
                .isEqualTo("lake-meta put: create conflict: tbl/sales/a already exists and holds 1; nothing was written"
                        + " (to replace it, pass --expect 1)" + NL);
        assertThat(again.out()).isEmpty();
    }

    @Test
    void put_staleExpect_isAConflictThatReportsTheCurrentValue() {
        Cli.Run run = Cli.run("put", "--store", store, "tbl/sales/orders", "{\"v\":3}", "--expect", "{\"v\":0}");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.err())
                .isEqualTo(
                        "lake-meta put: update conflict: tbl/sales/orders holds {\"v\":1}; nothing was written" + NL);
        assertThat(Cli.run("get", "--store", store, "tbl/sales/orders").out()).isEqualTo("{\"v\":1}" + NL);
    }

    @Test
    void put_expectOnAnAbsentKey_isAConflict() {
        Cli.Run run = Cli.run("put", "--store", store, "tbl/sales/none", "x", "--expect", "y");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.err()).contains("tbl/sales/none is absent; nothing was written");
    }

    @Test
    void put_conflictAsJson() {
        Cli.Run run = Cli.run("put", "--store", store, "--json", "tbl/sales/orders", "x", "--expect", "y");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.out())
                .isEqualTo("{\"key\":\"tbl/sales/orders\",\"operation\":\"update\",\"applied\":false,"
                        + "\"currentKnown\":true,\"current\":\"{\\\"v\\\":1}\",\"encoding\":\"utf8\"}" + NL);
    }

    @Test
    void delete_staleExpect_isAConflictAndDeletesNothing() {
        Cli.Run run = Cli.run("delete", "--store", store, "tbl/sales/orders", "--expect", "{\"v\":0}");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.err()).contains("delete conflict: tbl/sales/orders holds {\"v\":1}");
        assertThat(Cli.run("get", "--store", store, "tbl/sales/orders").exitCode())
                .isZero();
    }

    @Test
    void delete_requiresExpect() {
        Cli.Run run = Cli.run("delete", "--store", store, "tbl/sales/orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("lake-meta delete: Missing required option: '--expect=OLD'");
    }

    @Test
    void get_absentKey_exitsNotFound() {
        Cli.Run text = Cli.run("get", "--store", store, "tbl/sales/none");
        Cli.Run json = Cli.run("get", "--store", store, "--json", "tbl/sales/none");

        assertThat(text.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(text.out()).isEmpty();
        assertThat(text.err()).isEqualTo("lake-meta get: tbl/sales/none is absent" + NL);
        assertThat(json.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(json.out()).isEqualTo("{\"key\":\"tbl/sales/none\",\"found\":false}" + NL);
    }

    @Test
    void get_json_escapesNonAscii() {
        Cli.run("put", "--store", store, "tbl/sales/caf\u00e9", "\u2603");

        Cli.Run run = Cli.run("get", "--store", store, "--json", "tbl/sales/caf\u00e9");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        "{\"key\":\"tbl/sales/caf\\u00E9\",\"found\":true,\"value\":\"\\u2603\",\"encoding\":\"utf8\"}"
                                + NL);
    }

    @Test
    void binaryValues_withHexAndBase64() {
        assertThat(Cli.run("put", "--store", store, "--hex", "tbl/bin/a", "00ff10")
                        .exitCode())
                .isZero();

        assertThat(Cli.run("get", "--store", store, "--hex", "tbl/bin/a").out()).isEqualTo("00ff10" + NL);
        assertThat(Cli.run("get", "--store", store, "--base64", "tbl/bin/a").out())
                .isEqualTo("AP8Q" + NL);
        assertThat(Cli.run("put", "--store", store, "--base64", "tbl/bin/a", "AQ==", "--expect", "AP8Q")
                        .exitCode())
                .isZero();
        assertThat(Cli.run("get", "--store", store, "--hex", "tbl/bin/a").out()).isEqualTo("01" + NL);
    }

    @Test
    void binaryValue_asText_isAUsageErrorThatNamesTheFix() {
        Cli.run("put", "--store", store, "--hex", "tbl/bin/a", "ff");

        Cli.Run get = Cli.run("get", "--store", store, "tbl/bin/a");
        Cli.Run scan = Cli.run("scan", "--store", store, "--prefix", "tbl/bin/");

        assertThat(get.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(get.err())
                .isEqualTo(
                        "lake-meta get: value of tbl/bin/a is not UTF-8 text (1 bytes): print it with --hex or --base64"
                                + NL);
        assertThat(scan.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(scan.out()).as("no half-printed page").isEmpty();
    }

    @Test
    void scan_followsTokensToTheEnd() {
        for (int i = 1; i <= 4; i++) {
            Cli.run("put", "--store", store, "tbl/ns/k" + i, "v" + i);
        }
        Cli.run("put", "--store", store, "tbl/other/k", "outside");

        List<String> lines = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            Cli.Run run = token == null
                    ? Cli.run("scan", "--store", store, "--prefix", "tbl/ns/", "--limit", "2")
                    : Cli.run("scan", "--store", store, "--prefix", "tbl/ns/", "--limit", "2", "--token", token);
            assertThat(run.exitCode()).as(run.toString()).isZero();
            token = null;
            for (String line : run.out().lines().toList()) {
                if (line.startsWith("next-token: ")) {
                    token = line.substring("next-token: ".length());
                } else {
                    lines.add(line);
                }
            }
            pages++;
        } while (token != null && pages < 10);

        assertThat(lines).containsExactly("tbl/ns/k1\tv1", "tbl/ns/k2\tv2", "tbl/ns/k3\tv3", "tbl/ns/k4\tv4");
        assertThat(pages).isBetween(2, 3);
    }

    @Test
    void scan_json_carriesTheNextToken() {
        Cli.run("put", "--store", store, "tbl/sales/p", "2");

        Cli.Run first = Cli.run("scan", "--store", store, "--json", "--prefix", "tbl/sales/", "--limit", "1");

        assertThat(first.exitCode()).isZero();
        assertThat(first.out())
                .startsWith("{\"prefix\":\"tbl/sales/\",\"encoding\":\"utf8\",\"entries\":"
                        + "[{\"key\":\"tbl/sales/orders\",\"value\":\"{\\\"v\\\":1}\"}],\"nextToken\":\"");
        String token = first.out().replaceAll("(?s).*\"nextToken\":\"([^\"]+)\".*", "$1");
        Cli.Run second =
                Cli.run("scan", "--store", store, "--json", "--prefix", "tbl/sales/", "--limit", "1", "--token", token);
        assertThat(second.out()).contains("\"key\":\"tbl/sales/p\"");
    }

    @Test
    void scan_tokenOfAnotherPrefix_isInvalid() {
        Cli.run("put", "--store", store, "tbl/sales/p", "2");
        Cli.Run first = Cli.run("scan", "--store", store, "--prefix", "tbl/sales/", "--limit", "1");
        String token = first.out()
                .lines()
                .filter(l -> l.startsWith("next-token: "))
                .findFirst()
                .orElseThrow()
                .substring("next-token: ".length());

        Cli.Run run = Cli.run("scan", "--store", store, "--prefix", "tbl/ops/", "--limit", "1", "--token", token);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("lake-meta scan: ").contains("token").hasLineCount(1);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void scan_malformedToken_isAUsageError() {
        Cli.Run run = Cli.run("scan", "--store", store, "--prefix", "tbl/", "--token", "not-a-token");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("lake-meta scan: ").contains("token").hasLineCount(1);
    }

    @Test
    void scan_limitOutOfRange_isAUsageError() {
        Cli.Run zero = Cli.run("scan", "--store", store, "--prefix", "tbl/", "--limit", "0");
        Cli.Run tooMany = Cli.run("scan", "--store", store, "--prefix", "tbl/", "--limit", "10001");

        assertThat(zero.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.err())
                .isEqualTo("lake-meta scan: page limit 0 is out of range: use 1 to 10000"
                        + " and follow the continuation token for more" + NL);
        assertThat(tooMany.exitCode()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void scan_prefixWithoutFamily_isAUsageError() {
        Cli.Run run = Cli.run("scan", "--store", store, "--prefix", "tbl");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .startsWith("lake-meta scan: prefix 'tbl' names no family")
                .contains("pass --prefix tbl/")
                .hasLineCount(1);
    }

    @Test
    void invalidKey_isAUsageErrorWithoutStackTrace() {
        Cli.Run run = Cli.run("get", "--store", store, "Tables/x");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .startsWith("lake-meta get: key 'Tables/x' has family 'Tables' with character 'T'")
                .hasLineCount(1);
    }

    @Test
    void valueTooLarge_isAUsageErrorAndWritesNothing() {
        String tooLarge = "x".repeat(Limits.MAX_VALUE_BYTES + 1);

        Cli.Run run = Cli.run("put", "--store", store, "tbl/sales/big", tooLarge);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .isEqualTo("lake-meta put: value is 262145 bytes; the limit is 262144 bytes (256 KiB):"
                        + " keep large blobs elsewhere and store a reference" + NL);
        assertThat(Cli.run("get", "--store", store, "tbl/sales/big").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void missingStoreDirectory_isAUsageErrorAndCreatesNothing() {
        Path missing = temp.resolve("missing");

        Cli.Run get = Cli.run("get", "--store", "rocks:" + missing, "tbl/a/b");
        Cli.Run put = Cli.run("put", "--store", "rocks:" + missing, "tbl/a/b", "v");

        assertThat(get.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(get.err())
                .isEqualTo("lake-meta get: store directory " + missing + " does not exist:"
                        + " pass the directory of an existing store (put --create-store creates one)" + NL);
        assertThat(put.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing).doesNotExist();
    }

    @Test
    void emptyStoreDirectory_isAUsageError() throws Exception {
        Path empty = Files.createDirectory(temp.resolve("empty"));

        Cli.Run run = Cli.run("scan", "--store", "rocks:" + empty, "--prefix", "tbl/");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("store directory " + empty + " is empty");
    }

    @Test
    void directoryThatIsNoStore_isAUsageError() throws Exception {
        Path foreign = Files.createDirectory(temp.resolve("foreign"));
        Files.writeString(foreign.resolve("notes.txt"), "not a store");

        Cli.Run run = Cli.run("get", "--store", "rocks:" + foreign, "tbl/a/b");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .startsWith("lake-meta get: cannot open RocksDB store in " + foreign + ": ")
                .hasLineCount(1);
    }

    @Test
    void directoryOfGarbage_isAUsageErrorForEveryCommand_andStaysAsItWas() throws Exception {
        Path garbage = Files.createDirectory(temp.resolve("garbage"));
        Random random = new Random(8);
        for (String name : List.of("CURRENT", "MANIFEST-000001", "000003.log", "OPTIONS-000005", "IDENTITY")) {
            byte[] content = new byte[1 + random.nextInt(4096)];
            random.nextBytes(content);
            Files.write(garbage.resolve(name), content);
        }
        Map<String, byte[]> before = contents(garbage);

        List<Cli.Run> runs = List.of(
                Cli.run("get", "--store", "rocks:" + garbage, "tbl/a/b"),
                Cli.run("put", "--store", "rocks:" + garbage, "tbl/a/b", "v"),
                Cli.run("put", "--store", "rocks:" + garbage, "--create-store", "tbl/a/b", "v"),
                Cli.run("delete", "--store", "rocks:" + garbage, "tbl/a/b", "--expect", "v"),
                Cli.run("scan", "--store", "rocks:" + garbage, "--prefix", "tbl/"));

        for (Cli.Run run : runs) {
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err())
                    .as(run.toString())
                    .contains("cannot open RocksDB store in " + garbage + ": ")
                    .contains("does not hold a readable lake-meta store")
                    .hasLineCount(1)
                    .doesNotContain("\tat ");
        }
        assertThat(contents(garbage))
                .as("the refused opens changed nothing")
                .containsOnlyKeys(before.keySet())
                .allSatisfy((name, bytes) -> assertThat(bytes).as(name).isEqualTo(before.get(name)));
    }

    @Test
    void directoryWhoseCurrentNamesAGarbageManifest_isAUsageError() throws Exception {
        Path garbage = Files.createDirectory(temp.resolve("garbage-manifest"));
        Files.writeString(garbage.resolve("CURRENT"), "MANIFEST-000001\n");
        Files.writeString(garbage.resolve("MANIFEST-000001"), "this is no manifest");

        Cli.Run run = Cli.run("get", "--store", "rocks:" + garbage, "tbl/a/b");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .contains("does not hold a readable lake-meta store")
                .hasLineCount(1);
        try (Stream<Path> files = Files.list(garbage)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("CURRENT", "MANIFEST-000001");
        }
    }

    private static Map<String, byte[]> contents(Path directory) throws IOException {
        Map<String, byte[]> contents = new TreeMap<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                contents.put(file.getFileName().toString(), Files.readAllBytes(file));
            }
        }
        return contents;
    }

    @Test
    void argumentStartingWithAt_isAValue_notAFileToExpand() throws Exception {
        Path notes = Files.writeString(temp.resolve("notes"), "tbl/other/key expanded");

        Cli.Run put = Cli.run("put", "--store", store, "tbl/sales/notes", "@" + notes);
        Cli.Run get = Cli.run("get", "--store", store, "tbl/sales/notes");

        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(get.out()).as(get.toString()).isEqualTo("@" + notes + NL);
    }

    @Test
    void storeHeldByAnotherOpenStore_isReadable_butAWriteIsAStoreError() {
        try (MetaStore held =
                RocksDbMetaStore.builder().directory(temp.resolve("db")).build()) {
            held.create(MetaKey.of("tbl/sales/held"), MetaValue.utf8("written by the holder"));
            Cli.Run get = Cli.run("get", "--store", store, "tbl/sales/held");
            Cli.Run scan = Cli.run("scan", "--store", store, "--prefix", "tbl/sales/");
            Cli.Run put = Cli.run("put", "--store", store, "tbl/sales/other", "v");

            assertThat(get.exitCode()).as(get.toString()).isZero();
            assertThat(get.out()).isEqualTo("written by the holder" + NL);
            assertThat(scan.exitCode()).as(scan.toString()).isZero();
            assertThat(scan.out()).contains("tbl/sales/held\twritten by the holder");
            assertThat(put.exitCode()).as(put.toString()).isEqualTo(ExitCodes.STORE_ERROR);
            assertThat(put.err())
                    .startsWith("lake-meta put: cannot open RocksDB store in ")
                    .contains("is in use")
                    .hasLineCount(1);
            assertThat(held.get(MetaKey.of("tbl/sales/other"))).isEmpty();
        }
    }
}
