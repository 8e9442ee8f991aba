package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code tables list|show}, {@code maintenance run --once} and {@code ops show}, written once and
 * run on each backend the command opens: a subclass opens a fresh store for the setup and says how
 * the command names it. Every store starts with the same registry and journal.
 */
abstract class RecipeCommandsContract {

    static final String NL = System.lineSeparator();
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

    /** A fresh, empty store of the backend under test, for setting up and checking; closed by the caller. */
    abstract MetaStore openStore();

    /** How the command names that store: {@code --store ...} and any connection options. */
    abstract List<String> storeArguments();

    /** Runs {@code lake-meta WORDS... STORE-ARGUMENTS... ARGS...}; words are the command path, such as "tables list". */
    Cli.Run run(String words, String... args) {
        List<String> all = new ArrayList<>(List.of(words.split(" ")));
        all.addAll(storeArguments());
        all.addAll(List.of(args));
        return Cli.run(all.toArray(String[]::new));
    }

    @BeforeEach
    final void registerTablesAndAnOperation() {
        try (MetaStore store = openStore()) {
            TableRegistry registry = TableRegistry.over(store, CLOCK);
            registry.register(
                    TableId.of("sales", "orders"),
                    TableSpec.of("s3://lake/sales/orders", "iceberg").withProperty("owner", "sales"));
            registry.register(TableId.of("sales", "customers"), TableSpec.of("s3://lake/sales/customers", "delta"));
            registry.register(TableId.of("ns1", "a"), TableSpec.of("s3://lake/ns1/a", "iceberg"));
            registry.register(TableId.of("ns10", "a"), TableSpec.of("s3://lake/ns10/a", "iceberg"));
            TableRegistration refunds = registry.register(
                            TableId.of("sales", "refunds"), TableSpec.of("s3://lake/sales/refunds", "iceberg"))
                    .registration()
                    .orElseThrow();
            assertThat(registry.drop(refunds).isApplied()).isTrue();

            try (LeaderElection election = LeaderElection.builder()
                    .store(store)
                    .leaseKey(MetaKey.of("lease/orders-api"))
                    .candidateId("node-a")
                    .leaseDuration(Duration.ofSeconds(30))
                    .clock(CLOCK)
                    .build()) {
                election.campaignOnce();
                OperationJournal journal = OperationJournal.builder()
                        .store(FencedMetaStore.over(store, election))
                        .authority(election)
                        .clock(CLOCK)
                        .build();
                BeginResult begun = journal.begin("acme", "order-42", "sha256:9f86d081");
                assertThat(journal.complete(begun.record(), "{\"order\":42}").isApplied())
                        .isTrue();
                journal.begin("acme", "order-43", "sha256:aaaa");
            }
        }
    }

    /** Every entry of the store, family by family, following the tokens. */
    Map<String, String> contents() {
        Map<String, String> all = new TreeMap<>();
        try (MetaStore store = openStore()) {
            for (String family : List.of("tbl", "ops", "lease", "lock", "job")) {
                Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.family(family), 100));
                while (request.isPresent()) {
                    Page page = store.page(request.get());
                    for (Entry e : page.entries()) {
                        all.put(e.key().toString(), e.value().asUtf8());
                    }
                    request = request.get().next(page);
                }
            }
        }
        return all;
    }

    void put(String key, String value) {
        try (MetaStore store = openStore()) {
            assertThat(store.create(MetaKey.of(key), MetaValue.utf8(value)).isApplied())
                    .isTrue();
        }
    }

    /** The table lines of every page of {@code tables list ARGS}, following the tokens. */
    List<String> listAll(String... args) {
        List<String> rows = new ArrayList<>();
        String token = null;
        for (int pages = 0; pages < 100; pages++) {
            List<String> all = new ArrayList<>(List.of(args));
            if (token != null) {
                all.addAll(List.of("--token", token));
            }
            Cli.Run page = run("tables list", all.toArray(String[]::new));
            assertThat(page.exitCode()).as(page.toString()).isZero();
            token = null;
            for (String line : page.out().lines().toList()) {
                if (line.startsWith("next-token: ")) {
                    token = line.substring("next-token: ".length());
                } else {
                    rows.add(line);
                }
            }
            if (token == null) {
                return rows;
            }
        }
        throw new AssertionError("tables list did not end within 100 pages");
    }

    static void assertOneLineError(Cli.Run run, int exitCode, String... fragments) {
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(exitCode);
        assertThat(run.out()).as(run.toString()).isEmpty();
        assertThat(run.err()).as(run.toString()).contains(fragments).doesNotContain("Exception", "\tat ");
    }

    @Test
    void tablesList_printsEveryRegistration_tombstonesIncluded_inKeyOrder() {
        assertThat(listAll())
                .containsExactly(
                        "ns1/a\tactive\t1\ticeberg\ts3://lake/ns1/a",
                        "ns10/a\tactive\t1\ticeberg\ts3://lake/ns10/a",
                        "sales/customers\tactive\t1\tdelta\ts3://lake/sales/customers",
                        "sales/orders\tactive\t1\ticeberg\ts3://lake/sales/orders",
                        "sales/refunds\tdropped\t2\ticeberg\ts3://lake/sales/refunds");
    }

    @Test
    void tablesList_withLimitTwo_pagesThroughExactlyTheNamespace() {
        List<String> sales = listAll("--namespace", "sales", "--limit", "2");

        assertThat(sales)
                .extracting(line -> line.split("\t")[0])
                .containsExactly("sales/customers", "sales/orders", "sales/refunds");
        assertThat(listAll("--namespace", "ns1"))
                .as("ns10 is another namespace")
                .containsExactly("ns1/a\tactive\t1\ticeberg\ts3://lake/ns1/a");
    }

    @Test
    void tablesList_json_carriesTypedRegistrations() {
        Cli.Run run = run("tables list", "--namespace", "ns10", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .isEqualTo("{\"namespace\":\"ns10\",\"tables\":[{\"table\":\"ns10/a\",\"namespace\":\"ns10\","
                        + "\"name\":\"a\",\"key\":\"tbl/ns10/a\",\"state\":\"active\",\"dropped\":false,\"generation\":1,"
                        + "\"format\":\"iceberg\",\"location\":\"s3://lake/ns10/a\",\"properties\":{}}],\"nextToken\":null}"
                        + NL);
    }

    @Test
    void tablesList_badInput_isExit2_onOneLine() {
        assertOneLineError(
                run("tables list", "--namespace", "sales/x"), ExitCodes.USAGE, "lake-meta tables list: ", "namespace");
        assertOneLineError(run("tables list", "--limit", "0"), ExitCodes.USAGE, "limit");
        assertOneLineError(run("tables list", "--limit", "10001"), ExitCodes.USAGE, "limit");
        assertOneLineError(run("tables list", "--token", "not-a-token"), ExitCodes.USAGE, "token");
        String salesToken = run("tables list", "--namespace", "sales", "--limit", "1")
                .out()
                .lines()
                .filter(l -> l.startsWith("next-token: "))
                .findFirst()
                .orElseThrow()
                .substring(12);
        assertOneLineError(run("tables list", "--namespace", "ns1", "--token", salesToken), ExitCodes.USAGE, "token");
    }

    @Test
    void tablesList_aRecordThatDoesNotDecode_isAStoreErrorNamingTheKey() {
        put("tbl/sales/broken", "{\"version\":1}");

        Cli.Run run = run("tables list", "--namespace", "sales");

        assertOneLineError(
                run,
                ExitCodes.STORE_ERROR,
                "lake-meta tables list: key 'tbl/sales/broken' does not hold a table registration");
    }

    @Test
    void tablesShow_printsOneRegistration() {
        Cli.Run run = run("tables show", "sales", "orders");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .isEqualTo(String.join(
                                NL,
                                "table: sales/orders",
                                "key: tbl/sales/orders",
                                "state: active",
                                "generation: 1",
                                "format: iceberg",
                                "location: s3://lake/sales/orders",
                                "property owner: sales")
                        + NL);
    }

    @Test
    void tablesShow_ofATombstone_saysWhenItWasDropped() {
        Cli.Run run = run("tables show", "sales", "refunds");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains("state: dropped" + NL, "generation: 2" + NL, "dropped at: 2026-01-01T00:00:00Z" + NL);
    }

    @Test
    void tablesShow_json_andAbsent() {
        Cli.Run found = run("tables show", "sales", "orders", "--json");
        Cli.Run absent = run("tables show", "sales", "returns", "--json");
        Cli.Run absentText = run("tables show", "sales", "returns");

        assertThat(found.out())
                .isEqualTo("{\"table\":\"sales/orders\",\"namespace\":\"sales\",\"name\":\"orders\","
                        + "\"key\":\"tbl/sales/orders\",\"state\":\"active\",\"dropped\":false,\"generation\":1,"
                        + "\"format\":\"iceberg\",\"location\":\"s3://lake/sales/orders\",\"properties\":{\"owner\":\"sales\"},"
                        + "\"found\":true}" + NL);
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(absent.out())
                .isEqualTo("{\"table\":\"sales/returns\",\"namespace\":\"sales\",\"name\":\"returns\","
                        + "\"key\":\"tbl/sales/returns\",\"found\":false}" + NL);
        assertThat(absentText.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(absentText.out()).isEmpty();
        assertThat(absentText.err())
                .isEqualTo("lake-meta tables show: no table sales/returns: tbl/sales/returns is absent" + NL);
    }

    @Test
    void tablesShow_badNameOrCorruptRecord() {
        assertOneLineError(run("tables show", "sales", "orders!"), ExitCodes.USAGE, "lake-meta tables show: ", "name");
        assertOneLineError(run("tables show", "sales"), ExitCodes.USAGE, "NAME");
        put("tbl/sales/broken", "not json");

        assertOneLineError(
                run("tables show", "sales", "broken"),
                ExitCodes.STORE_ERROR,
                "key 'tbl/sales/broken' does not hold a table registration");
    }

    @Test
    void opsShow_printsTheRecordedOutcome() {
        Cli.Run run = run("ops show", "acme", "order-42");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .isEqualTo(String.join(
                                NL,
                                "operation: acme/order-42",
                                "key: ops/acme/order-42",
                                "state: completed",
                                "digest: sha256:9f86d081",
                                "owner: node-a (epoch 1)",
                                "attempt: 1",
                                "started at: 2026-01-01T00:00:00Z",
                                "ended at: 2026-01-01T00:00:00Z",
                                "outcome: {\"order\":42}")
                        + NL);
    }

    @Test
    void opsShow_json_inProgress_andAbsent() {
        Cli.Run inProgress = run("ops show", "acme", "order-43", "--json");
        Cli.Run absent = run("ops show", "acme", "order-44");

        assertThat(inProgress.exitCode()).as(inProgress.toString()).isZero();
        assertThat(inProgress.out())
                .isEqualTo("{\"tenant\":\"acme\",\"operationId\":\"order-43\",\"key\":\"ops/acme/order-43\","
                        + "\"state\":\"in_progress\",\"digest\":\"sha256:aaaa\",\"holder\":\"node-a\",\"epoch\":1,\"attempt\":1,"
                        + "\"startedAt\":\"2026-01-01T00:00:00Z\",\"found\":true}" + NL);
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(absent.err())
                .isEqualTo("lake-meta ops show: no operation acme/order-44: ops/acme/order-44 is absent" + NL);
    }

    @Test
    void opsShow_badIdOrCorruptRecord_writesNothing() {
        Map<String, String> before = contents();
        assertOneLineError(run("ops show", "acme/x", "order-42"), ExitCodes.USAGE, "lake-meta ops show: ", "tenant");
        assertOneLineError(run("ops show", "acme", "order 42"), ExitCodes.USAGE, "operation id");
        put("ops/acme/broken", "{\"v\":2}");

        assertOneLineError(
                run("ops show", "acme", "broken"),
                ExitCodes.STORE_ERROR,
                "key 'ops/acme/broken' does not hold an operation record");
        before.put("ops/acme/broken", "{\"v\":2}");
        assertThat(contents()).isEqualTo(before);
    }

    @Test
    void maintenanceRunOnce_reportsOneTick_andWritesNothing() {
        Map<String, String> before = contents();

        Cli.Run run = run("maintenance run", "--once", "--page-size", "10");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .isEqualTo(String.join(
                                NL,
                                "report only: nothing is written and no lock is taken (page size 10, interval PT1M)",
                                "maintain ns1/a (generation 1, iceberg, s3://lake/ns1/a)",
                                "maintain ns10/a (generation 1, iceberg, s3://lake/ns10/a)",
                                "maintain sales/customers (generation 1, delta, s3://lake/sales/customers)",
                                "maintain sales/orders (generation 1, iceberg, s3://lake/sales/orders)",
                                "clean up sales/refunds (dropped, generation 2, s3://lake/sales/refunds): waits for your sweeper's cleanup",
                                "tick: scanned 5, maintain 4, clean up 1, gone 0, wrapped yes",
                                "the page was the registry's last: the next tick starts again at the first page")
                        + NL);
        assertThat(contents())
                .as("no registration, tombstone or lock record was written")
                .isEqualTo(before);
    }

    @Test
    void maintenanceRunOnce_readsOnePageOfThePageSize() {
        Cli.Run run = run("maintenance run", "--once", "--page-size", "2", "--interval", "30s", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .startsWith("{\"reportOnly\":true,\"pageSize\":2,\"interval\":\"PT30S\",\"scanned\":2,"
                        + "\"maintain\":[{\"table\":\"ns1/a\",")
                .contains("\"cleanUp\":[],\"gone\":0,\"wrapped\":false}");
    }

    @Test
    void maintenanceRun_badLimits_orNoOnce_areExit2_beforeTheStoreIsRead() {
        assertOneLineError(
                run("maintenance run"),
                ExitCodes.USAGE,
                "lake-meta maintenance run: Missing required option: '--once'");
        assertOneLineError(
                run("maintenance run", "--once", "--page-size", "0"), ExitCodes.USAGE, "--page-size 0 is out of range");
        assertOneLineError(
                run("maintenance run", "--once", "--page-size", "10001"), ExitCodes.USAGE, "--page-size", "10000");
        assertOneLineError(
                run("maintenance run", "--once", "--page-size", "ten"),
                ExitCodes.USAGE,
                "--page-size 'ten' is not a whole number");
        assertOneLineError(
                run("maintenance run", "--once", "--interval", "soon"),
                ExitCodes.USAGE,
                "--interval 'soon' is not a duration");
        assertOneLineError(
                run("maintenance run", "--once", "--interval", "0s"),
                ExitCodes.USAGE,
                "--interval",
                "must be positive");
    }

    @Test
    void maintenanceRun_aRecordThatDoesNotDecode_isAStoreErrorNamingTheKey() {
        put("tbl/aaa/broken", "{}");

        assertOneLineError(
                run("maintenance run", "--once"),
                ExitCodes.STORE_ERROR,
                "lake-meta maintenance run: key 'tbl/aaa/broken' does not hold a table registration");
    }
}
