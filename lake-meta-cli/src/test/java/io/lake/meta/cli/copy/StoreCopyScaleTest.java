package io.lake.meta.cli.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.cli.TestDynamo;
import io.lake.meta.copy.CopyReport;
import io.lake.meta.copy.StoreCopy;
import io.lake.meta.copy.Verification;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.postgres.PostgresMetaStore;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The "done when": a RocksDB store of keys in four families copied to PostgreSQL and to
 * DynamoDB, killed once half-way and resumed, verified equal both ways. 2 000 keys in the default
 * build; {@code -Dlake.meta.copy.scale.keys=100000} for the size. Prints its figures.
 */
class StoreCopyScaleTest {

    static final int KEYS = Integer.getInteger("lake.meta.copy.scale.keys", 2_000);
    static final int PAGE_SIZE = 500;

    @TempDir
    static Path directory;

    private static MetaStore source;
    private static PostgresTestTarget.TestDatabase database;
    private static DynamoDbTestServer server;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void fillSource() {
        source = RocksDbMetaStore.builder()
                .directory(directory.resolve("source"))
                .createIfMissing(true)
                .build();
        long started = System.nanoTime();
        StoreCopyTest.fill(source, KEYS);
        System.out.printf(
                "copy-scale: source of %d keys in %d families filled in %d ms%n",
                KEYS, StoreCopyTest.FAMILIES.size(), (System.nanoTime() - started) / 1_000_000);
        database = PostgresTestTarget.shared().newDatabase("copyscale");
        server = DynamoDbTestServer.create().start();
        dynamo = TestDynamo.client(server, "copy");
    }

    @AfterAll
    static void close() {
        source.close();
        dynamo.close();
        server.close();
        database.close();
    }

    @Test
    void rocksToPostgres_killedOnceAndResumed_verifiedEqual() {
        try (MetaStore target = PostgresMetaStore.builder()
                .dataSource(database.pool())
                .table("copy_scale")
                .createTableIfMissing(true)
                .build()) {
            killResumeVerify("postgres", () -> target);
        }
    }

    @Test
    void rocksToDynamo_killedOnceAndResumed_verifiedEqual() {
        try (MetaStore target = DynamoMetaStore.builder()
                .client(dynamo)
                .tableName("copy-scale")
                .shardCount(4)
                .createTableIfMissing(true)
                .build()) {
            killResumeVerify("dynamo", () -> target);
        }
    }

    private void killResumeVerify(String backend, Supplier<MetaStore> target) {
        long killAt = KEYS / 2 / PAGE_SIZE;
        AtomicLong pages = new AtomicLong();
        long started = System.nanoTime();
        assertThatThrownBy(() -> StoreCopy.from(source)
                        .to(target.get())
                        .prefixes(StoreCopyTest.FAMILIES)
                        .pageSize(PAGE_SIZE)
                        .listener(progress -> {
                            if (pages.incrementAndGet() == killAt) {
                                throw new IllegalStateException("killed after page " + killAt);
                            }
                        })
                        .build()
                        .run())
                .hasMessage("killed after page " + killAt);
        long killedMillis = (System.nanoTime() - started) / 1_000_000;
        assertThat(target.get().get(MetaKey.of("lake-meta-copy/resume"))).isPresent();

        started = System.nanoTime();
        CopyReport report = StoreCopy.from(source)
                .to(target.get())
                .prefixes(StoreCopyTest.FAMILIES)
                .pageSize(PAGE_SIZE)
                .build()
                .run();
        long resumedMillis = (System.nanoTime() - started) / 1_000_000;
        Verification verification = report.verification();
        System.out.printf(
                "copy-scale %s: %d keys; killed after %d pages (%d ms); resumed run %d ms (copy and"
                        + " verification); copied %d in %d pages across both runs, %d already equal; source %d keys"
                        + " sha256 %s; target %d keys sha256 %s; equal %s%n",
                backend,
                KEYS,
                killAt,
                killedMillis,
                resumedMillis,
                report.copied(),
                report.pages(),
                report.alreadyEqual(),
                verification.sourceKeys(),
                verification.sourceDigest(),
                verification.targetKeys(),
                verification.targetDigest(),
                verification.equal());
        assertThat(report.resumed()).isTrue();
        assertThat(report.copied()).isEqualTo(KEYS);
        assertThat(report.alreadyEqual()).isZero();
        assertThat(verification.equal()).as(verification.toString()).isTrue();
        assertThat(verification.sourceKeys()).isEqualTo(KEYS);
        assertThat(verification.targetKeys()).isEqualTo(KEYS);
        assertThat(target.get().get(MetaKey.of("lake-meta-copy/resume"))).isEmpty();
    }
}
