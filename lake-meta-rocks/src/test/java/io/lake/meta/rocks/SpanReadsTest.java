package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.quicktheories.core.Gen;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/** A large batch's checks read the span their keys cover, and answer exactly what a multiGet would. */
class SpanReadsTest {

    static {
        RocksDB.loadLibrary();
    }

    @TempDir
    Path directory;

    private Options options;
    private RocksDB db;
    private final List<List<MetaKey>> multiReads = new ArrayList<>();

    @BeforeEach
    void open() throws RocksDBException {
        options = new Options().setCreateIfMissing(true);
        db = RocksDB.open(options, directory.toString());
    }

    @AfterEach
    void close() {
        db.close();
        options.close();
    }

    @Test
    void anOrderedRunOfFreshKeysAfterStoredOnes_needsNoMultiRead() throws RocksDBException {
        storeRange(0, 1000);
        flush();
        store(key(5000)); // a stored key past the run, which the walk's bound keeps it from reaching

        List<Optional<MetaValue>> values = recordingReads().readAll(keys(1000, 1100));

        assertThat(values).hasSize(100).containsOnly(Optional.empty());
        assertThat(multiReads).isEmpty();
    }

    @Test
    void storedKeysInsideTheRun_areReadOnTheWay_evenDeletedOrInTables() throws RocksDBException {
        for (int i = 0; i < 100; i += 3) {
            store(key(i));
        }
        flush();
        db.delete(utf8(key(9)));
        db.put(utf8(key(12)), value(key(12), "again"));
        store(key(50));

        List<MetaKey> asked = keys(0, 100);
        List<Optional<MetaValue>> values = recordingReads().readAll(asked);

        assertThat(values).isEqualTo(multiGet(asked));
        assertThat(values.get(3)).contains(MetaValue.of(value(key(3), "first")));
        assertThat(values.get(9)).isEmpty();
        assertThat(values.get(12)).contains(MetaValue.of(value(key(12), "again")));
        assertThat(values.get(50)).contains(MetaValue.of(value(key(50), "first")));
        assertThat(multiReads).isEmpty();
    }

    @Test
    void aFewStoredKeysNobodyAskedFor_areSteppedOver_withoutAMultiRead() throws RocksDBException {
        storeRange(0, 41);
        db.put(utf8(key(40)), new byte[0]);
        List<MetaKey> asked = new ArrayList<>();
        for (int i = 0; i <= 40; i += 2) {
            asked.add(key(i)); // each after one stored key not asked for: 20 steps in all
        }
        asked.addAll(keys(100, 120));

        List<Optional<MetaValue>> values = recordingReads().readAll(asked);

        assertThat(values).isEqualTo(multiGet(asked));
        assertThat(values.get(1)).contains(MetaValue.of(value(key(2), "first")));
        assertThat(values.get(20)).contains(MetaValue.empty());
        assertThat(multiReads).isEmpty();
    }

    @Test
    void keysSpreadAmongManyOthers_leaveWhatTheSeeksDidNotReachToOneMultiRead() throws RocksDBException {
        for (int i = 0; i < 4000; i += 2) {
            store(key(i));
        }
        List<MetaKey> asked = IntStream.range(0, 40)
                .map(i -> 100 * i + 1)
                .mapToObj(SpanReadsTest::key)
                .toList();

        List<Optional<MetaValue>> values = recordingReads().readAll(asked);

        assertThat(values).isEqualTo(multiGet(asked));
        assertThat(multiReads).hasSize(1);
        assertThat(multiReads.get(0))
                .hasSize(asked.size() - SpanReads.MAX_SEEKS)
                .doesNotContainAnyElementsOf(asked.subList(0, SpanReads.MAX_SEEKS));
    }

    @Test
    void afterAWalkGaveUp_theNextLargeReadsGoStraightToTheMultiRead_thenAWalkIsTriedAgain() throws RocksDBException {
        for (int i = 0; i < 4000; i += 2) {
            store(key(i));
        }
        SpanReads reads = recordingReads();
        reads.readAll(IntStream.range(0, 40)
                .map(i -> 100 * i + 1)
                .mapToObj(SpanReadsTest::key)
                .toList());
        multiReads.clear();

        List<MetaKey> freshRun = keys(10_000, 10_040);
        for (int i = 0; i < SpanReads.RESTS_AFTER_GIVING_UP; i++) {
            reads.readAll(freshRun);
        }
        assertThat(multiReads)
                .hasSize(SpanReads.RESTS_AFTER_GIVING_UP)
                .allSatisfy(keys -> assertThat(keys).isEqualTo(freshRun));

        multiReads.clear();
        assertThat(reads.readAll(freshRun)).containsOnly(Optional.empty());
        assertThat(multiReads).isEmpty();
    }

    @Test
    void fewerKeysThanAWalkIsWorth_goStraightToTheMultiRead_asManyAreWalked() throws RocksDBException {
        List<MetaKey> few = keys(0, SpanReads.MIN_KEYS - 1);
        recordingReads().readAll(few);
        assertThat(multiReads).containsExactly(few);

        multiReads.clear();
        recordingReads().readAll(keys(0, SpanReads.MIN_KEYS));
        assertThat(multiReads).isEmpty();
    }

    @Test
    void aKeyAskedTwice_getsTheSameAnswerBothTimes() throws RocksDBException {
        store(key(7));
        List<MetaKey> asked = new ArrayList<>(keys(0, 40));
        asked.add(key(7));
        asked.add(key(8));

        List<Optional<MetaValue>> values = recordingReads().readAll(asked);

        assertThat(values).isEqualTo(multiGet(asked));
        assertThat(values.get(40)).contains(MetaValue.of(value(key(7), "first")));
        assertThat(values.get(41)).isEmpty();
    }

    /** How the property names key number i: padded, or unpadded with some keys past ASCII. */
    enum KeyShape {
        PADDED {
            @Override
            MetaKey key(int i) {
                return SpanReadsTest.key(i);
            }
        },
        UNPADDED_SOME_NOT_ASCII {
            @Override
            MetaKey key(int i) {
                // unpadded numbers sort 10 between 1 and 2; 'é' (0xC3 0xA9) sorts after every ASCII byte, unsigned
                return MetaKey.of("span/" + (i % 5 == 0 ? "é" : "") + "key-" + i);
            }
        };

        abstract MetaKey key(int i);
    }

    /**
     * Four regions of stored keys (none, sparse, half, nearly all; part in tables, part deleted,
     * rewritten or emptied in the memtable), and asked lists that are runs, strided runs,
     * scattered keys and their shuffles, with repeats: every answer is the multiGet's, whether
     * the walk finished or gave up (both happen, or the property would prove nothing about one).
     */
    @ParameterizedTest
    @EnumSource(KeyShape.class)
    void everyAnswer_isWhatAMultiGetReads(KeyShape shape) throws RocksDBException {
        Random layout = new Random(20261201L);
        int[] densityPercent = {0, 3, 50, 97};
        for (int i = 0; i < 4000; i++) {
            if (layout.nextInt(100) < densityPercent[i / 1000]) {
                store(shape.key(i));
            }
        }
        flush();
        for (int i = 0; i < 4000; i++) {
            int dice = layout.nextInt(100);
            if (dice < 5) {
                db.delete(utf8(shape.key(i)));
            } else if (dice < 10) {
                db.put(utf8(shape.key(i)), value(shape.key(i), "rewritten"));
            } else if (dice < 12) {
                db.put(utf8(shape.key(i)), new byte[0]);
            }
        }
        AtomicInteger walkedThrough = new AtomicInteger();
        AtomicInteger gaveUp = new AtomicInteger();

        qt().withFixedSeed(20261201L)
                .withExamples(600)
                .forAll(askedLists(shape))
                .checkAssert(asked -> {
                    multiReads.clear();
                    try {
                        assertThat(recordingReads().readAll(asked)).isEqualTo(multiGet(asked));
                    } catch (RocksDBException e) {
                        throw new AssertionError(e);
                    }
                    (multiReads.isEmpty() ? walkedThrough : gaveUp).incrementAndGet();
                });

        assertThat(walkedThrough).hasPositiveValue();
        assertThat(gaveUp).hasPositiveValue();
    }

    private static Gen<List<MetaKey>> askedLists(KeyShape shape) {
        Gen<Integer> start = integers().between(0, 3999);
        Gen<Integer> length = integers().between(SpanReads.MIN_KEYS, 120);
        Gen<Integer> stride = integers().between(1, 3);
        Gen<List<Integer>> scattered = lists().of(integers().between(0, 4100)).ofSizeBetween(0, 8);
        return start.zip(length, stride, (s, l, st) -> new int[] {s, l, st})
                .zip(scattered, booleans().all(), (run, extra, shuffled) -> {
                    List<MetaKey> keys = new ArrayList<>();
                    for (int i = 0; i < run[1]; i++) {
                        keys.add(shape.key(run[0] + i * run[2]));
                    }
                    extra.forEach(i -> keys.add(shape.key(i)));
                    if (shuffled) {
                        Collections.shuffle(keys, new Random(run[0]));
                    }
                    return keys;
                });
    }

    private SpanReads recordingReads() {
        return new SpanReads(db, keys -> {
            multiReads.add(List.copyOf(keys));
            return multiGet(keys);
        });
    }

    private List<Optional<MetaValue>> multiGet(List<MetaKey> keys) throws RocksDBException {
        List<byte[]> values = db.multiGetAsList(keys.stream().map(MetaKey::utf8).toList());
        return values.stream()
                .map(v -> v == null ? Optional.<MetaValue>empty() : Optional.of(MetaValue.of(v)))
                .toList();
    }

    private void storeRange(int from, int to) throws RocksDBException {
        for (int i = from; i < to; i++) {
            store(key(i));
        }
    }

    private void store(MetaKey key) throws RocksDBException {
        db.put(utf8(key), value(key, "first"));
    }

    private void flush() throws RocksDBException {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
        }
    }

    private static List<MetaKey> keys(int from, int to) {
        return IntStream.range(from, to).mapToObj(SpanReadsTest::key).toList();
    }

    private static MetaKey key(int i) {
        return MetaKey.of(String.format(Locale.ROOT, "span/key-%05d", i));
    }

    private static byte[] utf8(MetaKey key) {
        return key.utf8();
    }

    private static byte[] value(MetaKey key, String version) {
        return (key + "=" + version).getBytes(StandardCharsets.UTF_8);
    }
}
