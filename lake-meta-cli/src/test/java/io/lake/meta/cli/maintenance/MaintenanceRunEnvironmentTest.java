package io.lake.meta.cli.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code maintenance run --once} takes its limits from the process environment and its options,
 * through {@link MaintenanceLimits#fromSettings}: run in a child JVM, whose environment the test sets.
 */
class MaintenanceRunEnvironmentTest {

    @TempDir
    Path temp;

    private Path db;

    @BeforeEach
    void registerThreeTables() {
        db = temp.resolve("db");
        try (MetaStore store = RocksDbMetaStore.builder().directory(db).build()) {
            TableRegistry registry = TableRegistry.over(store);
            for (String name : List.of("a", "b", "c")) {
                registry.register(TableId.of("ns", name), TableSpec.of("s3://lake/ns/" + name, "iceberg"));
            }
        }
    }

    @Test
    void theEnvironmentSetsTheLimits() throws Exception {
        Cli.Run run = child(Map.of(MaintenanceLimits.PAGE_SIZE_ENV, "2", MaintenanceLimits.INTERVAL_ENV, "5m"));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .startsWith("report only: nothing is written and no lock is taken (page size 2, interval PT5M)")
                .contains("tick: scanned 2,", "wrapped no");
    }

    @Test
    void anOptionBeatsTheEnvironment() throws Exception {
        Cli.Run run = child(Map.of(MaintenanceLimits.PAGE_SIZE_ENV, "2"), "--page-size", "3");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("(page size 3, interval PT1M)", "tick: scanned 3,", "wrapped yes");
    }

    @Test
    void aMalformedVariable_isExit2_namingIt_evenWhenTheOtherLimitIsGiven() throws Exception {
        Cli.Run run = child(Map.of(MaintenanceLimits.INTERVAL_ENV, "soon"), "--page-size", "3");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .startsWith(
                        "lake-meta maintenance run: " + MaintenanceLimits.INTERVAL_ENV + " 'soon' is not a duration")
                .doesNotContain("Exception");
    }

    /** Runs {@code lake-meta maintenance run --once --store rocks:DB ARGS} in a child JVM with {@code environment} added. */
    private Cli.Run child(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LakeMetaCommand.class.getName(),
                "maintenance",
                "run",
                "--once",
                "--store",
                "rocks:" + db));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove(MaintenanceLimits.PAGE_SIZE_ENV);
        builder.environment().remove(MaintenanceLimits.INTERVAL_ENV);
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().put("LC_ALL", "C.UTF-8");
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("lake-meta did not exit: " + command);
        }
        return new Cli.Run(
                process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
