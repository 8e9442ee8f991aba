package io.lake.meta.cli.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.WriteResult;
import io.lake.meta.copy.CopyRefusedException;
import io.lake.meta.copy.CopyReport;
import io.lake.meta.copy.StoreCopy;
import io.lake.meta.copy.Verification;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.TooManyFamiliesException;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link StoreCopy} at the points an operator meets it: killed during the verification, the answer
 * of its last write lost, a resume record grown large, a source whose families change under an
 * every-family copy, a source holding the copy's own reserved family.
 */
class StoreCopyAttackTest {

    private static final MetaKey RECORD = MetaKey.of("lake-meta-copy/resume");

    private final InMemoryMetaStore source = InMemoryMetaStore.create();
    private final InMemoryMetaStore target = InMemoryMetaStore.create();

    @AfterEach
    void close() {
        source.close();
        target.close();
    }

    private static void fill(MetaStore store, List<String> families, int perFamily) {
        for (String family : families) {
            for (int i = 0; i < perFamily; i++) {
                assertThat(store.create(MetaKey.of(family + "/k" + i), MetaValue.utf8(family + i))
                                .isApplied())
                        .isTrue();
            }
        }
    }

    @Test
    void killedDuringTheVerification_isFinishedByARunOfTheSameCopy() {
        fill(source, List.of("tbl", "lease"), 30);
        AtomicBoolean copyDone = new AtomicBoolean();
        // the source fails its first read after the copy's last write: the process dies while verifying
        MetaStore dyingSource = new ForwardingMetaStore(source) {
            @Override
            public Page page(PageRequest request) {
                if (copyDone.getAndSet(false)) {
                    throw new StoreUnavailableException("injected: killed during the verification");
                }
                return super.page(request);
            }

            @Override
            public void close() {}
        };
        // the last page written: the next read of the source is the verification's
        assertThatThrownBy(() -> StoreCopy.from(dyingSource)
                        .to(target)
                        .pageSize(7)
                        .listener(progress -> copyDone.set(progress.read() == 60))
                        .build()
                        .run())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("during the verification");

        CopyReport rerun = StoreCopy.from(source).to(target).pageSize(7).build().run();
        assertThat(rerun.verification().equal()).as(rerun.toString()).isTrue();
        assertThat(rerun.copied()).isEqualTo(60);
        assertThat(target.get(RECORD)).isEmpty();
    }

    @Test
    void theAnswerToTheRecordsDeletionLost_isResolved_notThrownAtTheOperator() {
        fill(source, List.of("tbl"), 10);
        MetaStore losing = new ForwardingMetaStore(target) {
            @Override
            public WriteResult apply(Mutation mutation) {
                WriteResult result = super.apply(mutation);
                if (mutation instanceof Mutation.Delete && mutation.key().equals(RECORD)) {
                    throw new OutcomeUnknownException("injected: the answer to the record's deletion was lost", null);
                }
                return result;
            }

            @Override
            public void close() {}
        };
        CopyReport report = StoreCopy.from(source).to(losing).build().run();
        assertThat(report.verification().equal()).isTrue();
        assertThat(report.copied()).isEqualTo(10);
        assertThat(target.get(RECORD)).isEmpty();
    }

    @Test
    void aThousandLongFamilies_andAPageOfLargeValues_fitTheTargetsTransactions() {
        List<String> families = new ArrayList<>();
        for (int i = 0; i < KeyFamilies.MAX_FAMILIES - 1; i++) {
            families.add(String.format("f%031d", i));
        }
        fill(source, families, 1);
        // a page whose keys and values fill one transaction up to the copy's own allowance
        for (int i = 0; i < 7; i++) {
            source.create(MetaKey.of("zbig/" + i), MetaValue.of(new byte[256 * 1024]));
        }
        source.create(MetaKey.of("zbig/7"), MetaValue.of(new byte[190_000]));

        StoreCopy copy = StoreCopy.from(source).to(target).build();
        assertThat(copy.prefixes()).hasSize(KeyFamilies.MAX_FAMILIES);
        CopyReport report = copy.run();
        assertThat(report.verification().equal()).isTrue();
        assertThat(report.copied()).isEqualTo(KeyFamilies.MAX_FAMILIES - 1 + 8);
    }

    @Test
    void aSourceGrownPastTheCapDuringTheCopy_failsTheVerification_andKeepsTheRecord() {
        List<String> families = new ArrayList<>();
        for (int i = 0; i < KeyFamilies.MAX_FAMILIES; i++) {
            families.add("f" + i);
        }
        fill(source, families, 1);
        AtomicInteger pages = new AtomicInteger();
        assertThatThrownBy(() -> StoreCopy.from(source)
                        .to(target)
                        .listener(progress -> {
                            if (pages.incrementAndGet() == 1) {
                                source.create(MetaKey.of("zz/one-more"), MetaValue.utf8("a writer left running"));
                            }
                        })
                        .build()
                        .run())
                .isInstanceOf(TooManyFamiliesException.class)
                .hasMessageContaining("InMemoryMetaStore");
        // the copy is written; its record stays for a rerun once the source is back under the cap
        assertThat(target.get(RECORD)).isPresent();
        source.delete(MetaKey.of("zz/one-more"), MetaValue.utf8("a writer left running"));
        CopyReport rerun = StoreCopy.from(source).to(target).build().run();
        assertThat(rerun.resumed()).isTrue();
        assertThat(rerun.verification().equal()).isTrue();
    }

    @Test
    void aThousandAndOneFamilies_areRefusedWhenBuilt_nothingWritten() {
        List<String> families = new ArrayList<>();
        for (int i = 0; i <= KeyFamilies.MAX_FAMILIES; i++) {
            families.add("f" + i);
        }
        fill(source, families, 1);
        assertThatThrownBy(() -> StoreCopy.from(source).to(target).build())
                .isInstanceOf(TooManyFamiliesException.class);
        assertThat(target.size()).isZero();
    }

    @Test
    void aFamilyAddedToTheSourceDuringAnEveryFamilyCopy_isNotVerifiedEqual() {
        fill(source, List.of("tbl", "lease"), 20);
        AtomicInteger pages = new AtomicInteger();
        CopyReport report = StoreCopy.from(source)
                .to(target)
                .pageSize(5)
                .listener(progress -> {
                    if (pages.incrementAndGet() == 1) {
                        source.create(MetaKey.of("zzz/added-by-a-writer"), MetaValue.utf8("x"));
                    }
                })
                .build()
                .run();
        assertThat(report.verification().equal())
                .as(report.verification().toString())
                .isFalse();
        assertThat(report.verification().missingInTarget()).isEqualTo(1);
    }

    @Test
    void aSourceHoldingTheReservedFamily_isRefusedWhenBuilt_notLeftOutAndCalledEqual() {
        fill(source, List.of("tbl"), 5);
        // the source is the target of an unfinished copy: its own resume record, and half its keys
        source.create(RECORD, MetaValue.utf8("{\"format\":1}"));
        source.create(MetaKey.of("lake-meta-copy/mine"), MetaValue.utf8("a user's key"));
        assertThatThrownBy(() -> StoreCopy.from(source).to(target).build())
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("lake-meta-copy")
                .hasMessageContaining("not finished");
        assertThatThrownBy(() -> StoreCopy.from(source).everyFamily()).isInstanceOf(CopyRefusedException.class);
        assertThat(target.size()).isZero();
        // named, the other families are copied
        CopyReport report = StoreCopy.from(source)
                .to(target)
                .prefix(KeyPrefix.family("tbl"))
                .build()
                .run();
        assertThat(report.verification().equal()).isTrue();
    }

    @Test
    void aKeyAWriterCreatesInTheTargetBetweenRuns_isLeftAsItIs_andReported() {
        fill(source, List.of("tbl"), 20);
        assertThatThrownBy(() -> StoreCopy.from(source)
                        .to(target)
                        .pageSize(5)
                        .listener(p -> {
                            throw new IllegalStateException("killed");
                        })
                        .build()
                        .run())
                .hasMessage("killed");
        MetaKey written = MetaKey.of("tbl/k9"); // tbl/k0, k1, k10, k11, k12 are copied; k9 sorts last
        target.create(written, MetaValue.utf8("a writer of the target"));

        CopyReport report =
                StoreCopy.from(source).to(target).pageSize(5).build().run();
        assertThat(target.get(written)).contains(MetaValue.utf8("a writer of the target"));
        assertThat(report.differingSample()).containsExactly(written);
        assertThat(report.verification().equal()).isFalse();
        assertThat(report.verification().sample())
                .containsExactly(new Verification.Difference(written, Verification.Kind.VALUE_DIFFERS));
    }

    @Test
    void aListenerThatRunsTheCopyAgain_finishesIt_andTheOuterRunStopsAsASecondCopy() {
        fill(source, List.of("tbl"), 20);
        StoreCopy[] copy = new StoreCopy[1];
        AtomicInteger calls = new AtomicInteger();
        List<CopyReport> inner = new ArrayList<>();
        copy[0] = StoreCopy.from(source)
                .to(target)
                .pageSize(5)
                .listener(p -> {
                    if (calls.incrementAndGet() == 1) {
                        inner.add(copy[0].run());
                    }
                })
                .build();
        assertThatThrownBy(copy[0]::run)
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("another copy");
        assertThat(inner.get(0).verification().equal()).isTrue();
        assertThat(inner.get(0).copied()).isEqualTo(20);
        assertThat(copy[0].verify().equal()).isTrue();
        assertThat(target.get(RECORD)).isEmpty();
    }

    @Test
    void resumedFromAnotherSource_theDifferencesAreReported() {
        fill(source, List.of("tbl"), 20);
        assertThatThrownBy(() -> StoreCopy.from(source)
                        .to(target)
                        .pageSize(5)
                        .listener(p -> {
                            throw new IllegalStateException("killed");
                        })
                        .build()
                        .run())
                .hasMessage("killed");
        try (InMemoryMetaStore other = InMemoryMetaStore.create()) {
            for (int i = 0; i < 30; i++) {
                other.create(MetaKey.of("tbl/k" + i), MetaValue.utf8("other " + i));
            }
            CopyReport report =
                    StoreCopy.from(other).to(target).pageSize(5).build().run();
            assertThat(report.verification().equal()).isFalse();
            assertThat(report.verification().valueDiffers())
                    .isEqualTo(5); // the first run's page, from the first source
        }
    }

    @Test
    void aKeyDeletedFromAHalfWrittenPage_beforeTheResume_isNotCalledEqual() {
        fill(source, List.of("tbl"), 20);
        // pages of 10; transactions of 3 keys: kill after the first transaction of the first page
        MetaStore small = new ForwardingMetaStore(target) {
            int transactions;

            @Override
            public int maxTransactionKeys() {
                return 4;
            }

            @Override
            public io.lake.meta.TransactionResult transact(Transaction transaction) {
                if (++transactions == 2) {
                    throw new StoreUnavailableException("injected: killed");
                }
                return super.transact(transaction);
            }

            @Override
            public void close() {}
        };
        assertThatThrownBy(() ->
                        StoreCopy.from(source).to(small).pageSize(10).build().run())
                .isInstanceOf(StoreUnavailableException.class);
        source.delete(MetaKey.of("tbl/k0"), MetaValue.utf8("tbl0"));
        CopyReport report =
                StoreCopy.from(source).to(target).pageSize(10).build().run();
        // the resumed page starts one entry later than the record counted: tbl/k11 is skipped, and reported
        assertThat(report.verification().equal()).isFalse();
        assertThat(report.verification().sample())
                .containsExactlyInAnyOrder(
                        new Verification.Difference(MetaKey.of("tbl/k11"), Verification.Kind.MISSING_IN_TARGET),
                        new Verification.Difference(MetaKey.of("tbl/k0"), Verification.Kind.EXTRA_IN_TARGET));
    }

    @Test
    void aCopyOntoItselfThroughADecorator_isRefusedAsNonEmpty_andChangesNothingIntoNonEmpty() {
        fill(source, List.of("tbl"), 20);
        MetaStore same = new ForwardingMetaStore(source) {
            @Override
            public void close() {}
        };
        assertThatThrownBy(() -> StoreCopy.from(source).to(same).build().run())
                .isInstanceOf(CopyRefusedException.class)
                .hasMessageContaining("not empty");
        CopyReport report =
                StoreCopy.from(source).to(same).intoNonEmpty(true).build().run();
        assertThat(report.alreadyEqual()).isEqualTo(20);
        assertThat(report.copied()).isZero();
        assertThat(report.verification().equal()).isTrue();
        assertThat(source.size()).isEqualTo(20);
    }

    @Test
    void anEmptySource_everyFamily_copiesNothing_andIsEqual() {
        CopyReport report = StoreCopy.from(source).to(target).build().run();
        assertThat(report.prefixes()).isEmpty();
        assertThat(report.verification().equal()).isTrue();
        assertThat(target.size()).isZero();
    }

    @Test
    void keysAndValuesAtTheLimits_copyExactly() {
        List<MetaKey> keys = new ArrayList<>();
        String[] rests = {"\u007f", "\u0080", "\u00ff", "\u0000", "\uffff", "\ud83d\ude00", "\uefff", "z"};
        for (String rest : rests) {
            keys.add(MetaKey.of("tbl/" + rest));
            keys.add(MetaKey.of(
                    "tbl/" + rest.repeat(1020 / rest.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)));
        }
        keys.add(MetaKey.of("a".repeat(32) + "/" + "x".repeat(1024 - 33)));
        int i = 0;
        for (MetaKey key : keys) {
            byte[] value = new byte[i++ % 2 == 0 ? 0 : 256 * 1024];
            java.util.Arrays.fill(value, (byte) 0xFF);
            source.create(key, MetaValue.of(value));
        }
        // every differing key of the sample as long as a key can be, in characters JSON escapes
        for (MetaKey key : keys) {
            target.create(key, MetaValue.utf8("other"));
        }
        CopyReport report = StoreCopy.from(source)
                .to(target)
                .pageSize(3)
                .intoNonEmpty(true)
                .build()
                .run();
        assertThat(report.differing()).isEqualTo(keys.size());
        assertThat(report.verification().valueDiffers()).isEqualTo(keys.size());
        target.close();
        try (InMemoryMetaStore fresh = InMemoryMetaStore.create()) {
            CopyReport exact =
                    StoreCopy.from(source).to(fresh).pageSize(1).build().run();
            assertThat(exact.verification().equal()).isTrue();
            assertThat(exact.copied()).isEqualTo(keys.size());
        }
    }

    @Test
    void aPlanTooLargeForTheResumeRecord_isRefusedWhenBuilt_notStuckMidCopy() {
        List<KeyPrefix> plan = new ArrayList<>();
        for (int i = 0; i < 242; i++) {
            plan.add(KeyPrefix.of("tbl/" + "p".repeat(992) + String.format("%03d", i) + "/"));
        }
        // 20 differing keys fill the record's sample: the record outgrows a value in the middle of the copy
        for (int i = 0; i < 25; i++) {
            MetaKey key = MetaKey.of(plan.get(0) + "k" + String.format("%02d", i));
            source.create(key, MetaValue.utf8("v"));
            target.create(key, MetaValue.utf8("other"));
        }
        int before = target.size();
        try {
            StoreCopy copy = StoreCopy.from(source)
                    .to(target)
                    .prefixes(plan)
                    .intoNonEmpty(true)
                    .pageSize(5)
                    .build();
            CopyReport report = copy.run();
            assertThat(report.differing()).isEqualTo(25);
        } catch (io.lake.meta.InvalidArgumentException refused) {
            assertThat(target.get(RECORD))
                    .as("refused, but after writing: %s", refused.getMessage())
                    .isEmpty();
            assertThat(target.size()).isEqualTo(before);
        }
    }

    @Test
    void aResumeRecordOfThisFormatButDamaged_isRefused_andLeftAsItIs() {
        fill(source, List.of("tbl"), 5);
        List<String> damaged = List.of(
                "{\"format\":1,\"prefixes\":[\"tbl/\"]}",
                "{\"format\":1,\"prefixes\":[\"tbl/\"],\"pageSize\":5,\"prefixIndex\":-1,\"doneInPage\":0}",
                "{\"format\":1,\"prefixes\":[\"tbl/\"],\"pageSize\":5,\"prefixIndex\":7,\"doneInPage\":0}",
                "{\"format\":1,\"prefixes\":[\"tbl/\"],\"pageSize\":5,\"prefixIndex\":0,\"doneInPage\":-3}",
                "{\"format\":1,\"prefixes\":[\"no family\"],\"pageSize\":5,\"prefixIndex\":0,\"doneInPage\":0}",
                "{\"format\":1,\"prefixes\":[\"tbl/\"],\"pageSize\":5,\"prefixIndex\":0,\"token\":7,\"doneInPage\":0}",
                "[1]");
        for (String text : damaged) {
            MetaValue record = MetaValue.utf8(text);
            target.create(RECORD, record);
            assertThatThrownBy(() -> StoreCopy.from(source)
                            .to(target)
                            .prefix(KeyPrefix.family("tbl"))
                            .build()
                            .run())
                    .as(text)
                    .isInstanceOf(CopyRefusedException.class);
            assertThat(target.get(RECORD)).as(text).contains(record);
            assertThat(target.size()).as(text).isEqualTo(1);
            target.delete(RECORD, record);
        }
    }
}
