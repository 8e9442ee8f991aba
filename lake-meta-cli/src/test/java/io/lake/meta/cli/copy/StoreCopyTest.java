package io.lake.meta.cli.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.cli.TestDynamo;
import io.lake.meta.copy.CopyRefusedException;
import io.lake.meta.copy.CopyReport;
import io.lake.meta.copy.StoreCopy;
import io.lake.meta.copy.Verification;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.postgres.PostgresMetaStore;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@link StoreCopy} from RocksDB to PostgreSQL and to DynamoDB (the in-process test server):
 * several families (every family a RocksDB or DynamoDB source lists), kills at chosen points and
 * resumes, refusals, differences both ways.
 * {@link StoreCopyScaleTest} copies the 100 000 keys.
 */
class StoreCopyTest {

    static final int KEYS = 2_000;
    static final List<KeyPrefix> FAMILIES = List.of(
            KeyPrefix.family("tbl"), KeyPrefix.family("lease"), KeyPrefix.family("ops"), KeyPrefix.family("cnt"));

    private static PostgresTestTarget.TestDatabase database;
    private static DynamoDbTestServer server;
    private static DynamoDbClient dynamo;
    private static int tables;

    @TempDir
    Path directory;

    private MetaStore source;
    private final List<MetaStore> opened = new ArrayList<>();

    @BeforeAll
    static void startServers() {
        database = PostgresTestTarget.shared().newDatabase("copy");
        server = DynamoDbTestServer.create().start();
        dynamo = TestDynamo.client(server, "copy");
    }

    @AfterAll
    static void stopServers() {
        dynamo.close();
        server.close();
        database.close();
    }

    @BeforeEach
    void openSource() {
        source = RocksDbMetaStore.builder()
                .directory(directory.resolve("source"))
                .createIfMissing(true)
                .build();
        opened.add(source);
    }

    @AfterEach
    void closeStores() {
        opened.forEach(MetaStore::close);
    }

    private MetaStore postgres() {
        MetaStore store = PostgresMetaStore.builder()
                .dataSource(database.pool())
                .table(database.newTableName())
                .createTableIfMissing(true)
                .build();
        opened.add(store);
        return store;
    }

    private MetaStore dynamo() {
        MetaStore store = DynamoMetaStore.builder()
                .client(dynamo)
                .tableName("copy-" + (++tables))
                .shardCount(2)
                .createTableIfMissing(true)
                .build();
        opened.add(store);
        return store;
    }

    /** {@code count} keys spread over the four families, values of 0 to 3 000 bytes, written in transactions. */
    static void fill(MetaStore store, int count) {
        Random random = new Random(25);
        Transaction.Builder batch = Transaction.builder();
        int inBatch = 0;
        for (int i = 0; i < count; i++) {
            KeyPrefix family = FAMILIES.get(i % FAMILIES.size());
            byte[] value = new byte[random.nextInt(3_000)];
            random.nextBytes(value);
            batch.create(MetaKey.of(family + "k/" + String.format("%07d", i)), MetaValue.of(value));
            if (++inBatch == 90 || i == count - 1) {
                assertThat(store.transact(batch.build()).isApplied()).isTrue();
                batch = Transaction.builder();
                inBatch = 0;
            }
        }
    }

    private StoreCopy.Builder copy(MetaStore target) {
        return StoreCopy.from(source).to(target).prefixes(FAMILIES);
    }

    private static void assertCopiedExactly(CopyReport report, int keys) {
        assertThat(report.copied()).isEqualTo(keys);
        assertThat(report.alreadyEqual()).isZero();
        assertThat(report.differing()).isZero();
        Verification verification = report.verification();
        assertThat(verification.equal()).as(verification.toString()).isTrue();
        assertThat(verification.sourceKeys()).isEqualTo(keys);
        assertThat(verification.targetKeys()).isEqualTo(keys);
        assertThat(verification.sourceDigest()).isEqualTo(verification.targetDigest());
    }

    @Test
    void rocksToPostgres_everyFamily_verifiedEqual() {
        fill(source, KEYS);
        MetaStore target = postgres();
        CopyReport report = copy(target).pageSize(250).build().run();
        assertCopiedExactly(report, KEYS);
        assertThat(report.resumed()).isFalse();
        assertThat(target.get(MetaKey.of("lake-meta-copy/resume"))).isEmpty();
    }

    @Test
    void rocksToDynamo_everyFamily_verifiedEqual() {
        fill(source, KEYS);
        MetaStore target = dynamo();
        CopyReport report = copy(target).pageSize(250).build().run();
        assertCopiedExactly(report, KEYS);
        assertThat(target.get(MetaKey.of("lake-meta-copy/resume"))).isEmpty();
    }

    /** Families whose names are prefixes of one another, and keys whose rest is not ASCII. */
    static final List<String> AWKWARD_KEYS = List.of("a/1", "a/ünïcødé/名前", "ab/1", "ab0/1", "a-b/1", "a_b/ü", "0/z");

    private void fillAwkward(MetaStore store) {
        AWKWARD_KEYS.forEach(text -> assertThat(
                        store.create(MetaKey.of(text), MetaValue.of(text.getBytes(StandardCharsets.UTF_8)))
                                .isApplied())
                .isTrue());
    }

    @Test
    void noPrefix_copiesEveryFamily_rocksToPostgres() {
        fill(source, KEYS);
        fillAwkward(source);
        MetaStore target = postgres();

        StoreCopy copy = StoreCopy.from(source).to(target).pageSize(250).build();
        assertThat(copy.prefixes())
                .extracting(KeyPrefix::toString)
                .containsExactly("0/", "a-b/", "a/", "a_b/", "ab/", "ab0/", "cnt/", "lease/", "ops/", "tbl/");
        CopyReport report = copy.run();

        assertCopiedExactly(report, KEYS + AWKWARD_KEYS.size());
        assertThat(report.prefixes()).isEqualTo(copy.prefixes());
        assertThat(KeyFamilies.of(target).orElseThrow().families())
                .isEqualTo(KeyFamilies.of(source).orElseThrow().families());
        assertThat(target.get(MetaKey.of("a/ünïcødé/名前")).orElseThrow().toByteArray())
                .isEqualTo("a/ünïcødé/名前".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void noPrefix_copiesEveryFamily_dynamoToPostgres() {
        MetaStore dynamoSource = dynamo();
        fill(dynamoSource, 600);
        fillAwkward(dynamoSource);
        MetaStore target = postgres();

        StoreCopy copy = StoreCopy.from(dynamoSource)
                .everyFamily()
                .to(target)
                .pageSize(100)
                .build();
        assertThat(copy.prefixes())
                .extracting(KeyPrefix::toString)
                .containsExactly("0/", "a-b/", "a/", "a_b/", "ab/", "ab0/", "cnt/", "lease/", "ops/", "tbl/");
        assertCopiedExactly(copy.run(), 600 + AWKWARD_KEYS.size());
        assertThat(KeyFamilies.of(target).orElseThrow().families())
                .isEqualTo(KeyFamilies.of(dynamoSource).orElseThrow().families());
    }

    /** {@code store} behind a plain MetaStore proxy: every call reaches it, but it cannot list its families. */
    private static MetaStore withoutKeyFamilies(MetaStore store) {
        return (MetaStore) Proxy.newProxyInstance(
                MetaStore.class.getClassLoader(), new Class<?>[] {MetaStore.class}, (proxy, method, args) -> {
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void noPrefix_copiesEveryFamily_postgresToRocks_andSeesAFamilyOnlyTheTargetHolds() {
        MetaStore postgresSource = postgres();
        fill(postgresSource, 600);
        fillAwkward(postgresSource);
        CopyReport report =
                StoreCopy.from(postgresSource).to(source).pageSize(100).build().run();
        assertCopiedExactly(report, 600 + AWKWARD_KEYS.size());

        // a family only the target holds differs when every family is verified, and is invisible to named prefixes
        source.create(MetaKey.of("extra/1"), MetaValue.of(new byte[] {7}));
        Verification everyFamily =
                StoreCopy.from(postgresSource).to(source).build().verify();
        assertThat(everyFamily.equal()).isFalse();
        assertThat(everyFamily.extraInTarget()).isEqualTo(1);
        assertThat(StoreCopy.from(postgresSource)
                        .to(source)
                        .prefixes(FAMILIES)
                        .build()
                        .verify()
                        .equal())
                .isTrue();

        // and a new copy of every family into it is refused: the target is not empty
        MetaStore second = postgres();
        second.create(MetaKey.of("other/1"), MetaValue.of(new byte[] {1}));
        assertThatThrownBy(
                        () -> StoreCopy.from(postgresSource).to(second).build().run())
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("other/1");
    }

    @Test
    void killedAfterThreePages_resumes_withoutCopyingTwice() {
        fill(source, KEYS);
        MetaStore target = postgres();
        AtomicInteger pages = new AtomicInteger();
        StoreCopy killed = copy(target)
                .pageSize(100)
                .listener(progress -> {
                    if (pages.incrementAndGet() == 3) {
                        throw new IllegalStateException("killed after page 3");
                    }
                })
                .build();
        assertThatThrownBy(killed::run).hasMessage("killed after page 3");
        assertThat(target.get(MetaKey.of("lake-meta-copy/resume"))).isPresent();

        CopyReport report = copy(target).pageSize(100).build().run();
        assertThat(report.resumed()).isTrue();
        // created once each across both runs: a key written again would count as already equal
        assertCopiedExactly(report, KEYS);
    }

    @Test
    void killedMidPage_byAFailingTransaction_resumesWithoutCopyingTwice() {
        fill(source, KEYS);
        MetaStore target = dynamo();
        // pages of 250 are written in transactions of 99 keys; the fifth transaction fails mid-page
        FaultyStore failing = FaultyStore.over(target).failNth(Call.TRANSACT, 5, Fault.UNAVAILABLE);
        assertThatThrownBy(() -> StoreCopy.from(source)
                        .to(failing)
                        .prefixes(FAMILIES)
                        .pageSize(250)
                        .build()
                        .run())
                .isInstanceOf(StoreUnavailableException.class);
        CopyReport report = copy(target).pageSize(250).build().run();
        assertThat(report.resumed()).isTrue();
        assertCopiedExactly(report, KEYS);
    }

    @Test
    void unknownOutcome_isResolvedByTheResumeRecord_notCopiedTwice() {
        fill(source, 500);
        MetaStore target = postgres();
        // the third transaction lands, then its answer is lost
        CopyReport report = StoreCopy.from(source)
                .to(FaultyStore.over(target).failNth(Call.TRANSACT, 3, Fault.ANSWER_LOST))
                .prefixes(FAMILIES)
                .pageSize(100)
                .build()
                .run();
        assertCopiedExactly(report, 500);
    }

    @Test
    void nonEmptyTarget_isRefused_andNothingIsWritten() {
        fill(source, 100);
        MetaStore target = postgres();
        target.create(MetaKey.of("ops/k/mine"), MetaValue.utf8("theirs"));
        assertThatThrownBy(() -> copy(target).build().run())
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("not empty")
                .hasMessageContaining("ops/k/mine");
        assertThat(target.page(KeyPrefix.family("lake-meta-copy"), 10).entries())
                .isEmpty();
        assertThat(target.page(KeyPrefix.family("tbl"), 10).entries()).isEmpty();
    }

    @Test
    void intoNonEmpty_reportsADifferingKey_andLeavesIt() {
        fill(source, 100);
        MetaStore target = dynamo();
        MetaKey equalKey = MetaKey.of("tbl/k/0000000");
        MetaKey differingKey = MetaKey.of("lease/k/0000001");
        target.create(equalKey, source.get(equalKey).orElseThrow());
        target.create(differingKey, MetaValue.utf8("other bytes"));

        CopyReport report = copy(target).intoNonEmpty(true).build().run();
        assertThat(report.copied()).isEqualTo(98);
        assertThat(report.alreadyEqual()).isEqualTo(1);
        assertThat(report.differing()).isEqualTo(1);
        assertThat(report.differingSample()).containsExactly(differingKey);
        assertThat(target.get(differingKey)).contains(MetaValue.utf8("other bytes"));
        assertThat(report.verification().equal()).isFalse();
        assertThat(report.verification().valueDiffers()).isEqualTo(1);
        assertThat(report.verification().sample())
                .containsExactly(new Verification.Difference(differingKey, Verification.Kind.VALUE_DIFFERS));
    }

    @Test
    void verify_detectsADifferenceEachWay() {
        fill(source, 300);
        MetaStore target = postgres();
        assertCopiedExactly(copy(target).build().run(), 300);

        MetaKey onlyInTarget = MetaKey.of("cnt/k/extra");
        target.create(onlyInTarget, MetaValue.utf8("x"));
        Verification extra = copy(target).build().verify();
        assertThat(extra.equal()).isFalse();
        assertThat(extra.sample())
                .containsExactly(new Verification.Difference(onlyInTarget, Verification.Kind.EXTRA_IN_TARGET));
        assertThat(extra.sourceDigest()).isNotEqualTo(extra.targetDigest());
        target.delete(onlyInTarget, MetaValue.utf8("x"));

        MetaKey onlyInSource = MetaKey.of("ops/k/extra");
        source.create(onlyInSource, MetaValue.utf8("y"));
        Verification missing = copy(target).build().verify();
        assertThat(missing.equal()).isFalse();
        assertThat(missing.missingInTarget()).isEqualTo(1);
        assertThat(missing.sample())
                .containsExactly(new Verification.Difference(onlyInSource, Verification.Kind.MISSING_IN_TARGET));
        source.delete(onlyInSource, MetaValue.utf8("y"));

        assertThat(copy(target).build().verify().equal()).isTrue();
    }

    @Test
    void aSourceWrittenDuringTheCopy_failsTheVerification() {
        fill(source, 400);
        MetaStore target = postgres();
        MetaKey early = MetaKey.of("cnt/k/0000003"); // in the first family copied (cnt/ sorts first)
        AtomicInteger pages = new AtomicInteger();
        CopyReport report = copy(target)
                .pageSize(50)
                .listener(progress -> {
                    if (pages.incrementAndGet() == 2) {
                        MetaValue current = source.get(early).orElseThrow();
                        source.update(early, current, MetaValue.utf8("written by a writer that was not stopped"));
                    }
                })
                .build()
                .run();
        assertThat(report.verification().equal()).isFalse();
        assertThat(report.verification().sample())
                .containsExactly(new Verification.Difference(early, Verification.Kind.VALUE_DIFFERS));
    }

    @Test
    void badInput_isRefusedWithATypedError_beforeAnythingIsWritten() {
        MetaStore target = postgres();
        assertThatThrownBy(() -> StoreCopy.from(source).to(target).prefix(KeyPrefix.family("lake-meta-copy")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("reserves");
        assertThatThrownBy(() -> StoreCopy.from(source)
                        .to(target)
                        .prefix(KeyPrefix.family("tbl"))
                        .prefix(KeyPrefix.of("tbl/a/")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("overlap");
        assertThatThrownBy(() -> StoreCopy.from(source).to(target).pageSize(0))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> StoreCopy.from(source).to(source)).isInstanceOf(InvalidArgumentException.class);
        // no prefix, from a source that cannot list its families: refused, nothing written
        MetaStore opaqueSource = withoutKeyFamilies(postgres());
        opaqueSource.create(MetaKey.of("tbl/a"), MetaValue.of(new byte[] {1}));
        assertThatThrownBy(() -> StoreCopy.from(opaqueSource).to(target).build())
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("cannot list its key families");
        assertThatThrownBy(() -> StoreCopy.from(opaqueSource).everyFamily())
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("--prefix tbl/");
        assertThatThrownBy(() ->
                        StoreCopy.from(source).prefix(KeyPrefix.family("tbl")).everyFamily())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("names none");
        assertThat(target.get(MetaKey.of("tbl/a"))).isEmpty();
        assertThat(target.get(MetaKey.of("lake-meta-copy/resume"))).isEmpty();

        // a resume record of another plan: refused, the record and the target untouched
        fill(source, 200);
        assertThatThrownBy(copy(target)
                        .pageSize(50)
                        .listener(p -> {
                            throw new IllegalStateException("killed");
                        })
                        .build()::run)
                .hasMessage("killed");
        MetaValue record = target.get(MetaKey.of("lake-meta-copy/resume")).orElseThrow();
        assertThatThrownBy(() -> StoreCopy.from(source)
                        .to(target)
                        .prefix(KeyPrefix.family("tbl"))
                        .build()
                        .run())
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("unfinished copy");
        assertThat(target.get(MetaKey.of("lake-meta-copy/resume"))).contains(record);
        assertThat(new String(record.toByteArray(), StandardCharsets.UTF_8)).contains("\"prefixIndex\"");
    }
}
