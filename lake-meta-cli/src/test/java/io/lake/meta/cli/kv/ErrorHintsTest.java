package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Errors and reports that say what to do next, in the words a user reads. */
class ErrorHintsTest {

    @TempDir
    Path temp;

    private String store;

    @BeforeEach
    void createStore() {
        store = "rocks:" + temp.resolve("store");
        Cli.Run created = Cli.run("put", "--store", store, "--create-store", "catalog/sales/orders", "v1");
        assertThat(created.exitCode()).as(created.toString()).isZero();
    }

    @Test
    void scan_ofABareFamily_suggestsTheFamilyWithItsSlash() {
        Cli.Run run = Cli.run("scan", "--store", store, "--prefix", "catalog");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains("--prefix catalog/");
    }

    @Test
    void put_ofAnExistingKey_withoutExpect_suggestsExpect() {
        Cli.Run run = Cli.run("put", "--store", store, "catalog/sales/orders", "v2");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
        assertThat(run.err())
                .as(run.toString())
                .contains("already exists and holds v1")
                .contains("to replace it, pass --expect v1");
        assertThat(Cli.run("get", "--store", store, "catalog/sales/orders").out())
                .isEqualTo("v1" + System.lineSeparator());
    }

    @Test
    void txn_valueGivenAsAJsonObject_saysToPassAString() throws Exception {
        Path file = temp.resolve("txn.json");
        Files.writeString(file, "[{\"create\": \"catalog/sales/invoices\", \"value\": {\"version\": 1}}]");
        Cli.Run run = Cli.run("txn", "--store", store, "--file", file.toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err())
                .as(run.toString())
                .contains("\"value\" must be a string")
                .contains("a JSON object: pass its text as a string, such as \"{\\\"version\\\":1}\"");
    }

    @Test
    void txn_report_countsInTheSingular() throws Exception {
        Path file = temp.resolve("txn.json");
        Files.writeString(
                file,
                "[{\"require\": \"catalog/sales/orders\", \"holds\": \"v1\"},"
                        + " {\"create\": \"catalog/sales/invoices\", \"value\": \"v1\"}]");
        Cli.Run run = Cli.run("txn", "--store", store, "--file", file.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).as(run.toString()).contains("applied a transaction of 2 keys (1 condition, 1 mutation)");

        Path one = temp.resolve("one.json");
        Files.writeString(one, "[{\"create\": \"catalog/sales/refunds\", \"value\": \"v1\"}]");
        Cli.Run single = Cli.run("txn", "--store", store, "--file", one.toString());
        assertThat(single.out())
                .as(single.toString())
                .contains("applied a transaction of 1 key (0 conditions, 1 mutation)");
    }
}
