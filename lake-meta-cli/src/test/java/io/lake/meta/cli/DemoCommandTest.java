package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.demo.DemoScene;
import io.lake.meta.cli.demo.DemoScenes;
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
        String directory = run.out().lines().findFirst().orElseThrow()
                .replaceAll("^lake-meta demo: RocksDB store in (.*) \\(temporary, deleted at the end\\)$", "$1");
        assertThat(Path.of(directory)).isAbsolute().doesNotExist();
        assertThat(run.out()).contains("The temporary store was deleted.");
    }

    @Test
    void demo_showsEachOutcomeItNarrates() {
        String out = Cli.run("demo").out();

        assertThat(out).containsPattern("create tbl/sales/orders +-> applied")
                .containsPattern("create tbl/sales/orders again +-> conflict, current value \\{.*\"version\":1}")
                .containsPattern("B: update expecting version 1 \\(now stale\\) +-> conflict, current value \\{.*\"version\":2}")
                .containsPattern("node-a, guard epoch 1: orders -> version 4 +-> applied")
                .containsPattern("node-a, stale guard epoch 1: orders -> version 5 +-> guard rejected")
                .contains("The target did not move")
                .containsPattern("page 1:\\R +tbl/sales/customers\\R +tbl/sales/invoices\\R +next token \\S+\\.\\.\\.\\S+ \\(\\d+ chars\\)")
                .contains("no next token: the prefix is exhausted")
                .contains("5 tables in 3 pages");
    }

    @Test
    void demo_withPath_keepsTheStoreForInspection() {
        Path kept = temp.resolve("kept");

        Cli.Run run = Cli.run("demo", "--path", kept.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("(kept)", "lake-meta scan --store rocks:" + kept + " --prefix tbl/");
        Cli.Run get = Cli.run("get", "--store", "rocks:" + kept, "tbl/sales/orders");
        assertThat(get.exitCode()).as(get.toString()).isZero();
        assertThat(get.out()).contains("\"version\":4");
    }

    @Test
    void demo_withNonEmptyPath_isAUsageError() throws Exception {
        Files.writeString(temp.resolve("something"), "x");

        Cli.Run run = Cli.run("demo", "--path", temp.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).isEqualTo("lake-meta demo: --path " + temp + " is not empty: the demo writes a fresh"
                + " store, so pass a new or empty directory" + System.lineSeparator());
        assertThat(run.out()).isEmpty();
    }
}
