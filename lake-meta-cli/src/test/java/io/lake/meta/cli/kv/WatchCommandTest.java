package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lake-meta watch} on a RocksDB store: the prefix's contents come first. */
class WatchCommandTest {

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
        assertThat(Cli.run("put", "--store", store, "tbl/sales/invoices", "i1").exitCode())
                .isZero();
        assertThat(Cli.run("put", "--store", store, "tbl/ops/runs", "r1").exitCode())
                .isZero();
    }

    @Test
    void watch_printsThePrefixsContentsFirst_andStopsAfterMaxEvents() {
        Cli.Run run = Cli.run("watch", "--store", store, "--prefix", "tbl/sales/", "--max-events", "2");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).isEqualTo("initial tbl/sales/invoices\ti1" + NL + "initial tbl/sales/orders\to1" + NL);
    }

    @Test
    void watch_json_printsOneObjectPerEvent() {
        Cli.Run run = Cli.run("watch", "--store", store, "--prefix", "tbl/ops/", "--max-events", "1", "--json");

        assertThat(run.out())
                .isEqualTo(
                        "{\"key\":\"tbl/ops/runs\",\"event\":\"initial\",\"value\":\"r1\",\"encoding\":\"utf8\"}" + NL);
    }

    @Test
    void watch_badArguments_areUsageErrors() {
        assertThat(Cli.run("watch", "--store", store, "--prefix", "tbl", "--max-events", "1")
                        .exitCode())
                .isEqualTo(ExitCodes.USAGE);
        Cli.Run zero = Cli.run("watch", "--store", store, "--prefix", "tbl/", "--max-events", "0");
        assertThat(zero.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.err()).contains("--max-events must be at least 1");
    }
}
