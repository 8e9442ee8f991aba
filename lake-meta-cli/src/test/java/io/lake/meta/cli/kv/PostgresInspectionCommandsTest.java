package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.store.PostgresCliDatabase;
import io.lake.meta.cli.store.PostgresStoreSpec;
import io.lake.meta.cli.store.StoreSpec;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The inspection commands on {@code postgres:JDBC-URL}, against the tests' PostgreSQL server (one
 * database for the class). Credentials come from PGUSER and PGPASSWORD (set here through the
 * spec's environment seam); no output ever holds the password.
 */
class PostgresInspectionCommandsTest {

    private static final String NL = System.lineSeparator();
    private static final String PASSWORD = "s3cret-never-printed";

    private static PostgresCliDatabase postgres;
    private static PostgresTestTarget.TestDatabase database;
    private static String url;
    private final List<Cli.Run> runs = new ArrayList<>();

    @BeforeAll
    static void openDatabase() {
        postgres = PostgresCliDatabase.open(
                "cli",
                Map.of(PostgresStoreSpec.USER_VARIABLE, "postgres", PostgresStoreSpec.PASSWORD_VARIABLE, PASSWORD));
        database = postgres.database;
        url = postgres.url;
    }

    @AfterAll
    static void closeDatabase() {
        postgres.close();
    }

    @AfterEach
    void nothingPrintedThePassword() {
        for (Cli.Run run : runs) {
            assertThat(run.out() + run.err()).as(run.toString()).doesNotContain(PASSWORD);
        }
    }

    private Cli.Run run(String command, String store, String... args) {
        List<String> all = new ArrayList<>(List.of(command, "--store", store));
        all.addAll(List.of(args));
        Cli.Run run = Cli.run(all.toArray(String[]::new));
        runs.add(run);
        return run;
    }

    @Test
    void roundTrip_putGetScanDelete_onANewTable() {
        String store = "postgres:" + url + "#cli_roundtrip";
        Cli.Run create = run("put", store, "--create-store", "tbl/sales/orders", "{\"v\":1}");
        assertThat(create.exitCode()).as(create.toString()).isZero();
        assertThat(create.out()).isEqualTo("created tbl/sales/orders" + NL);

        Cli.Run update = run("put", store, "tbl/sales/orders", "{\"v\":2}", "--expect", "{\"v\":1}");
        assertThat(update.exitCode()).as(update.toString()).isZero();

        Cli.Run stale = run("put", store, "tbl/sales/orders", "{\"v\":3}", "--expect", "{\"v\":1}");
        assertThat(stale.exitCode()).as(stale.toString()).isEqualTo(ExitCodes.CONFLICT);

        Cli.Run get = run("get", store, "tbl/sales/orders");
        assertThat(get.out()).isEqualTo("{\"v\":2}" + NL);

        Cli.Run scan = run("scan", store, "--prefix", "tbl/", "--all");
        assertThat(scan.exitCode()).as(scan.toString()).isZero();
        assertThat(scan.out()).contains("tbl/sales/orders\t{\"v\":2}");

        Cli.Run delete = run("delete", store, "tbl/sales/orders", "--expect", "{\"v\":2}");
        assertThat(delete.out()).isEqualTo("deleted tbl/sales/orders" + NL);
        assertThat(run("get", store, "tbl/sales/orders").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void aMissingTable_isAUsageError_thatSaysHowToCreateIt() {
        Cli.Run run = run("get", "postgres:" + url + "#no_such_table", "tbl/a/b");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("table no_such_table does not exist").contains("put --create-store creates it");
    }

    @Test
    void aUrlCarryingCredentials_isRefusedBeforeAnyConnection_withoutEchoingThem() {
        Cli.Run run = run("get", "postgres:" + url + "?password=" + PASSWORD, "tbl/a/b");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("must not carry credentials").contains("PGPASSWORD");
    }

    @Test
    void specParsing() {
        assertThat(StoreSpec.parse("postgres:jdbc:postgresql://db:5432/meta"))
                .isEqualTo(new PostgresStoreSpec("jdbc:postgresql://db:5432/meta", "lake_meta"));
        assertThat(StoreSpec.parse("postgres:jdbc:postgresql://db/meta#meta.lake_meta"))
                .isEqualTo(new PostgresStoreSpec("jdbc:postgresql://db/meta", "meta.lake_meta"));
        assertThat(StoreSpec.parse("postgres:jdbc:postgresql://db/meta#meta.lake_meta")
                        .text())
                .isEqualTo("postgres:jdbc:postgresql://db/meta#meta.lake_meta");
        Function<String, Cli.Run> get = spec -> run("get", spec, "tbl/a/b");
        assertThat(get.apply("postgres:mysql://db/meta").err()).contains("is not a PostgreSQL JDBC URL");
        assertThat(get.apply("postgres:jdbc:postgresql://db/meta#Bad-Name").err())
                .contains("lower-case SQL name");
        assertThat(get.apply("postgres:jdbc:postgresql://admin@db/meta").err()).contains("must not carry credentials");
    }
}
