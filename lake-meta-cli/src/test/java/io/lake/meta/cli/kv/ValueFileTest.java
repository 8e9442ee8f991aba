package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code put KEY --value-file F|-} and {@code scan --all}, on a RocksDB store. */
class ValueFileTest {

    @TempDir
    Path temp;

    private String store;

    @BeforeEach
    void createStore() {
        store = "rocks:" + temp.resolve("db");
        assertThat(Cli.run("put", "--store", store, "--create-store", "tbl/sales/orders", "v1")
                        .exitCode())
                .isZero();
    }

    @Test
    void valueFile_writesTheFilesBytesExactly_newlinesAndTabsIncluded() throws Exception {
        Path file = Files.writeString(temp.resolve("spec.json"), "{\"format\":\"iceberg\",\n\t\"v\":2}\n");

        Cli.Run put = Cli.run("put", "--store", store, "tbl/sales/refunds", "--value-file", file.toString());
        Cli.Run get = Cli.run("get", "--store", store, "--json", "tbl/sales/refunds");

        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(get.out()).contains("{\\\"format\\\":\\\"iceberg\\\",\\n\\t\\\"v\\\":2}\\n");
    }

    @Test
    void valueFile_withHex_decodesTheFilesText() throws Exception {
        Path file = Files.writeString(temp.resolve("v.hex"), "00ff10\n");

        assertThat(Cli.run("put", "--store", store, "--hex", "tbl/sales/bin", "--value-file", file.toString())
                        .exitCode())
                .isZero();
        assertThat(Cli.run("get", "--store", store, "--hex", "tbl/sales/bin")
                        .out()
                        .strip())
                .isEqualTo("00ff10");
    }

    @Test
    void valueFile_dash_readsStandardInput() {
        PutCommand put = new PutCommand();
        put.valueFile = "-";

        assertThat(put.newValue(
                                ValueEncoding.UTF8,
                                new ByteArrayInputStream("from stdin".getBytes(StandardCharsets.UTF_8)))
                        .asUtf8())
                .isEqualTo("from stdin");
    }

    @Test
    void valueAndValueFile_excludeEachOther_andOneIsRequired_nothingWritten() throws Exception {
        Path file = Files.writeString(temp.resolve("v"), "x");

        Cli.Run both = Cli.run("put", "--store", store, "tbl/sales/x", "v", "--value-file", file.toString());
        Cli.Run neither = Cli.run("put", "--store", store, "tbl/sales/x");
        Cli.Run missing = Cli.run(
                "put",
                "--store",
                store,
                "tbl/sales/x",
                "--value-file",
                temp.resolve("nope").toString());

        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("exclude each other");
        assertThat(neither.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(neither.err()).contains("missing VALUE").contains("--value-file");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("does not exist");
        assertThat(Cli.run("get", "--store", store, "tbl/sales/x").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void scanAll_readsEveryKeyOfThePrefix_inPagesOfTheLimit() {
        for (int i = 0; i < 7; i++) {
            Cli.run("put", "--store", store, "tbl/sales/t" + i, "v" + i);
        }

        Cli.Run all = Cli.run("scan", "--store", store, "--prefix", "tbl/sales/", "--all", "--limit", "2");

        assertThat(all.exitCode()).as(all.toString()).isZero();
        assertThat(all.out().lines()).hasSize(8).noneMatch(l -> l.startsWith("next-token"));
    }

    @Test
    void everySubcommandsHelp_givesAnExampleAndItsExitCodes_forScanAndPut() {
        assertThat(Cli.run("scan", "--help").out()).contains("Examples:").contains("Exit codes:");
        assertThat(Cli.run("put", "--help").out())
                .contains("Examples:")
                .contains("--value-file")
                .contains("Exit codes:");
    }
}
