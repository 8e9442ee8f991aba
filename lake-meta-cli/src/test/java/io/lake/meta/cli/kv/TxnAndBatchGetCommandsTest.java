package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lake-meta txn --file} and {@code lake-meta get --keys} on a RocksDB store. */
class TxnAndBatchGetCommandsTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path temp;

    private String store;

    @BeforeEach
    void createStore() {
        store = "rocks:" + temp.resolve("db");
        assertThat(Cli.run("put", "--store", store, "--create-store", "tbl/sales/orders", "o1")
                        .exitCode())
                .isZero();
        assertThat(Cli.run("put", "--store", store, "tbl/sales/_schema", "s1").exitCode())
                .isZero();
    }

    private String file(String json) throws IOException {
        Path file = Files.createTempFile(temp, "txn", ".json");
        Files.writeString(file, json);
        return file.toString();
    }

    @Test
    void txn_allStepsHold_appliesEveryMutation() throws IOException {
        String txn = file("""
                [ {"require": "tbl/sales/_schema", "holds": "s1"},
                  {"require": "tbl/sales/_frozen", "absent": true},
                  {"delete": "tbl/sales/orders", "expect": "o1"},
                  {"create": "tbl/sales/orders_2026", "value": "o1"} ]""");

        Cli.Run run = Cli.run("txn", "--store", store, "--file", txn);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).isEqualTo("applied a transaction of 4 keys (2 conditions, 2 mutations)" + NL);
        assertThat(Cli.run("scan", "--store", store, "--prefix", "tbl/sales/").out())
                .isEqualTo("tbl/sales/_schema\ts1" + NL + "tbl/sales/orders_2026\to1" + NL);
    }

    @Test
    void txn_thatFails_exits3_namesEveryFailedKey_andWritesNothing() throws IOException {
        String txn = file("""
                [ {"require": "tbl/sales/_schema", "holds": "s0"},
                  {"update": "tbl/sales/orders", "expect": "o0", "value": "o2"},
                  {"create": "tbl/sales/new", "value": "n"} ]""");

        Cli.Run run = Cli.run("txn", "--store", store, "--file", txn);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.err())
                .isEqualTo("lake-meta txn: transaction not applied, nothing was written; 2 of 3 keys failed:" + NL
                        + "  tbl/sales/_schema: holds s1" + NL + "  tbl/sales/orders: holds o1" + NL);
        assertThat(Cli.run("get", "--store", store, "tbl/sales/new").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void txn_json_reportsTheFailuresAsData() throws IOException {
        String txn = file(
                "[{\"require\": \"tbl/sales/gone\", \"holds\": \"x\"}, {\"create\": \"tbl/sales/orders\", \"value\": \"y\"}]");

        Cli.Run run = Cli.run("txn", "--store", store, "--file", txn, "--json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.out())
                .isEqualTo("{\"applied\":false,\"keys\":2,\"failures\":["
                        + "{\"key\":\"tbl/sales/gone\",\"currentKnown\":true,\"current\":null},"
                        + "{\"key\":\"tbl/sales/orders\",\"currentKnown\":true,\"current\":\"o1\"}],\"encoding\":\"utf8\"}"
                        + NL);
    }

    @Test
    void txn_hexValues_followTheEncodingOption() throws IOException {
        String txn = file("[{\"update\": \"tbl/sales/orders\", \"expect\": \"6f31\", \"value\": \"00ff\"}]");

        assertThat(Cli.run("txn", "--store", store, "--file", txn, "--hex").exitCode())
                .isZero();
        assertThat(Cli.run("get", "--store", store, "tbl/sales/orders", "--hex").out())
                .isEqualTo("00ff" + NL);
    }

    @Test
    void txn_badFiles_areUsageErrors_namingTheStep_andWriteNothing() throws IOException {
        String[][] cases = {
            {"not json", "is not JSON"},
            {"{}", "non-empty JSON list"},
            {"[]", "non-empty JSON list"},
            {"[{\"create\": \"tbl/sales/x\"}]", "step 1 is missing \"value\""},
            {
                "[{\"create\": \"tbl/sales/x\", \"value\": \"v\", \"expect\": \"e\"}]",
                "step 1 has an unknown member \"expect\""
            },
            {"[{\"create\": \"tbl/sales/x\", \"delete\": \"tbl/sales/y\", \"value\": \"v\"}]", "exactly one of"},
            {"[{\"require\": \"tbl/sales/x\"}, {\"create\": \"tbl/sales/y\", \"value\": \"v\"}]", "either \"holds\""},
            {
                "[{\"require\": \"tbl/sales/x\", \"absent\": false}, {\"create\": \"tbl/sales/y\", \"value\": \"v\"}]",
                "\"absent\" must be true"
            },
            {"[{\"create\": \"tbl/sales/y\", \"value\": 7}]", "\"value\" must be a string"},
            {
                "[{\"create\": \"tbl/sales/y\", \"value\": \"a\"}, {\"delete\": \"tbl/sales/y\", \"expect\": \"a\"}]",
                "more than once"
            },
            {"[{\"require\": \"tbl/sales/_schema\", \"holds\": \"s1\"}]", "at least one mutation"},
            {"[{\"create\": \"TBL/x\", \"value\": \"v\"}]", "family"},
        };
        for (String[] c : cases) {
            Cli.Run run = Cli.run("txn", "--store", store, "--file", file(c[0]));
            assertThat(run.exitCode()).as(c[0] + ": " + run).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err()).as(c[0]).contains(c[1]);
        }
        assertThat(Cli.run("scan", "--store", store, "--prefix", "tbl/sales/").out())
                .isEqualTo("tbl/sales/_schema\ts1" + NL + "tbl/sales/orders\to1" + NL);
    }

    @Test
    void txn_fileThatIsNotUtf8_orMissing_isAUsageError() throws IOException {
        Path binary = temp.resolve("binary.json");
        Files.write(binary, new byte[] {'[', (byte) 0xff, ']'});

        Cli.Run notUtf8 = Cli.run("txn", "--store", store, "--file", binary.toString());
        Cli.Run missing = Cli.run(
                "txn", "--store", store, "--file", temp.resolve("nope.json").toString());

        assertThat(notUtf8.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(notUtf8.err()).contains("is not UTF-8 text");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("does not exist");
    }

    @Test
    void getKeys_printsThePresentKeysInOrder_andExits1WhenOneIsAbsent() {
        Cli.Run all = Cli.run("get", "--store", store, "--keys", "tbl/sales/orders,tbl/sales/_schema");
        Cli.Run some = Cli.run("get", "--store", store, "--keys", "tbl/sales/missing,tbl/sales/orders");

        assertThat(all.exitCode()).as(all.toString()).isZero();
        assertThat(all.out()).isEqualTo("tbl/sales/orders\to1" + NL + "tbl/sales/_schema\ts1" + NL);
        assertThat(some.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(some.out()).isEqualTo("tbl/sales/orders\to1" + NL);
        assertThat(some.err()).isEqualTo("lake-meta get: tbl/sales/missing is absent" + NL);
    }

    @Test
    void getKeys_json_listsEveryKeyAskedFor() {
        Cli.Run run = Cli.run("get", "--store", store, "--keys", "tbl/sales/missing,tbl/sales/orders", "--json");

        assertThat(run.out())
                .isEqualTo("{\"keys\":[{\"key\":\"tbl/sales/missing\",\"found\":false},"
                        + "{\"key\":\"tbl/sales/orders\",\"found\":true,\"value\":\"o1\",\"encoding\":\"utf8\"}]}"
                        + NL);
    }

    @Test
    void get_needsExactlyOneOfKeyAndKeys_andKeysAreCheckedBeforeReading() {
        Cli.Run neither = Cli.run("get", "--store", store);
        Cli.Run both = Cli.run("get", "--store", store, "tbl/sales/orders", "--keys", "tbl/sales/orders");
        Cli.Run twice = Cli.run("get", "--store", store, "--keys", "tbl/sales/orders,tbl/sales/orders");

        assertThat(neither.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(neither.err()).contains("neither");
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(twice.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(twice.err()).contains("more than once");
    }
}
