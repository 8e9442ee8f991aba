package io.lake.meta.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {

    @TempDir
    Path temp;

    @Test
    void demo_playsEveryScene_andDeletesItsTemporaryStore() {
        Cli.Run run = Cli.run("demo");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.err()).isEmpty();
        int i = 1;
        for (DemoScene scene : DemoScenes.all()) {
            assertThat(run.out()).contains("== " + i++ + ". " + scene.title() + " ==");
        }
        String directory = run.out()
                .lines()
                .findFirst()
                .orElseThrow()
                .replaceAll("^lake-meta demo: RocksDB store in (.*) \\(temporary, deleted at the end\\)$", "$1");
        assertThat(Path.of(directory)).isAbsolute().doesNotExist();
        assertThat(run.out()).contains("The temporary store was deleted.");
    }

    @Test
    void demo_showsEachOutcomeItNarrates() {
        String out = Cli.run("demo").out();

        assertThat(out)
                .containsPattern("register tbl/sales/orders +-> applied")
                .contains("tbl/sales/orders = {\"v\":1,\"state\":\"active\",\"generation\":1,")
                .containsPattern("register tbl/sales/orders again +-> conflict, current registration generation 1")
                .containsPattern("A: update from generation 1 \\(owner=sales\\) +-> applied: generation 2")
                .containsPattern(
                        "B: update from generation 1 \\(now stale\\) +-> conflict, current registration generation 2")
                .containsPattern("B: update from generation 2 \\(tier=gold\\) +-> applied: generation 3")
                .containsPattern("node-a, guard epoch 1: snapshot 3 -> 4 +-> applied")
                .containsPattern("node-a, stale guard epoch 1: snapshot 4 -> 5 +-> guard rejected")
                .contains("The target did not move")
                .containsPattern(
                        "page 1:\\R +tbl/sales/customers\\R +tbl/sales/invoices\\R +next token \\S+\\.\\.\\.\\S+ \\(\\d+ chars\\)")
                .contains("no next token: the prefix is exhausted")
                .contains("5 tables in 3 pages");
    }

    @Test
    void demo_sweepsTheRegistryPageByPage_andReplaysAnOperationFromItsRecord() {
        String out = Cli.run("demo").out();

        assertThat(out)
                .containsPattern("drop tbl/ops/events +-> tombstone, dropped, generation 2")
                .containsPattern("tick 1 +-> scanned 3, updated 2, purged 1\\R +ops/audit maintained\\R"
                        + " +ops/events cleaned up \\(s3://lake/ops/events\\)\\R +sales/customers maintained")
                .containsPattern("tick 2 +-> scanned 3, updated 3, purged 0\\R")
                .containsPattern("tick 3 +-> scanned 1, updated 1, purged 0, wrapped\\R +sales/returns maintained")
                .containsPattern("get lock/tbl/sales/orders +-> vacant, epoch 1")
                .containsPattern("begin acme/create-forecasts +-> started")
                .containsPattern("begin acme/create-forecasts again +-> completed, outcome"
                        + " \\{\"table\":\"sales/forecasts\",\"generation\":1}")
                .containsPattern(
                        "begin acme/create-forecasts, another payload +-> refused: IdempotencyConflictException");
    }

    @Test
    void demo_withPath_keepsTheStoreForInspection_withTheRecipeCommands() {
        Path kept = temp.resolve("kept");

        Cli.Run run = Cli.run("demo", "--path", kept.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains(
                        "(kept)",
                        "lake-meta tables list --store rocks:" + kept,
                        "lake-meta scan --store rocks:" + kept + " --prefix tbl/");
        Cli.Run show = Cli.run("tables", "show", "--store", "rocks:" + kept, "sales", "orders");
        assertThat(show.exitCode()).as(show.toString()).isZero();
        assertThat(show.out()).contains("generation: 4", "property compacted: yes", "property tier: gold");
        Cli.Run list = Cli.run("tables", "list", "--store", "rocks:" + kept);
        assertThat(list.exitCode())
                .as("every record under tbl/ is a registration: " + list)
                .isZero();
        assertThat(list.out().lines())
                .as("7 registered, ops/events purged, sales/forecasts added")
                .hasSize(7);
        Cli.Run op = Cli.run("ops", "show", "--store", "rocks:" + kept, "acme", "create-forecasts");
        assertThat(op.exitCode()).as(op.toString()).isZero();
        assertThat(op.out()).contains("state: completed", "outcome: {\"table\":\"sales/forecasts\",\"generation\":1}");
        Cli.Run get = Cli.run("get", "--store", "rocks:" + kept, "catalog/current-snapshot");
        assertThat(get.out()).contains("\"snapshot\":4");
    }

    @Test
    void demo_withNonEmptyPath_isAUsageError() throws Exception {
        Files.writeString(temp.resolve("something"), "x");

        Cli.Run run = Cli.run("demo", "--path", temp.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .isEqualTo("lake-meta demo: --path " + temp + " is not empty: the demo writes a fresh"
                        + " store, so pass a new or empty directory" + System.lineSeparator());
        assertThat(run.out()).isEmpty();
    }
}
