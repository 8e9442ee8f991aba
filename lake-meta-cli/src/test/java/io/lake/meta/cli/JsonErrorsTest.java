package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With --json a failure is one JSON object on stdout too; without it stdout stays empty. */
class JsonErrorsTest {

    @TempDir
    Path temp;

    private String store;

    @BeforeEach
    void createStore() {
        store = "rocks:" + temp.resolve("db");
        Cli.Run created = Cli.run("put", "--store", store, "--create-store", "tbl/sales/orders", "{\"v\":1}");
        assertThat(created.exitCode()).as(created.toString()).isZero();
    }

    private static JsonNode onlyJsonLineOf(Cli.Run run) throws Exception {
        assertThat(run.out().lines()).as(run.toString()).hasSize(1);
        return new ObjectMapper().readTree(run.out());
    }

    @Test
    void anInvalidArgument_withJson_isAJsonErrorOnStdout_andTheLineOnStderr() throws Exception {
        Cli.Run run = Cli.run("scan", "--store", store, "--prefix", "tbl/", "--limit", "0", "--json");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        JsonNode error = onlyJsonLineOf(run);
        assertThat(error.get("exitCode").asInt()).isEqualTo(ExitCodes.USAGE);
        assertThat(error.get("error").asText()).isNotBlank();
        assertThat(run.err()).startsWith("lake-meta scan: ").contains(error.get("error").asText());
    }

    @Test
    void aStoreThatCannotBeOpened_withJson_isAJsonError() throws Exception {
        Cli.Run run = Cli.run("get", "--store", "rocks:" + temp.resolve("missing"), "--json", "tbl/sales/orders");

        assertThat(run.exitCode()).isNotZero();
        assertThat(onlyJsonLineOf(run).get("exitCode").asInt()).isEqualTo(run.exitCode());
    }

    @Test
    void anUnknownOption_withJson_isAJsonError() throws Exception {
        Cli.Run run = Cli.run("get", "--store", store, "--json", "--bogus", "tbl/sales/orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onlyJsonLineOf(run).get("error").asText()).contains("--bogus");
    }

    @Test
    void aRecipeCommandsError_withJson_isAJsonError() throws Exception {
        Cli.Run run = Cli.run("tables", "show", "--store", store, "--json", "bad namespace!", "orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onlyJsonLineOf(run).get("exitCode").asInt()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void withoutJson_anErrorLeavesStdoutEmpty() {
        Cli.Run run = Cli.run("scan", "--store", store, "--prefix", "tbl/", "--limit", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("lake-meta scan: ");
    }
}
