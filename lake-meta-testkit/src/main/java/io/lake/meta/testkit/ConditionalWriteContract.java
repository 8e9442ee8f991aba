package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Part of {@link MetaStoreSuite}: point reads and conditional create, update and delete. */
@ContractGroup("conditional writes")
abstract class ConditionalWriteContract extends ContractSupport {

    private final MetaKey k = key("tbl/ns1/orders");

    @Test
    void get_absentKey_returnsEmpty() {
        assertThat(store.get(k)).isEmpty();
    }

    @Test
    void create_absentKey_appliesAndIsReadable() {
        assertThat(store.create(k, value("v1"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).contains(value("v1"));
    }

    @Test
    void create_presentKey_conflictsWithCurrentValueAndKeepsIt() {
        store.create(k, value("v1"));

        WriteResult result = store.create(k, value("v2"));

        assertThat(result.isConflict()).isTrue();
        assertThat(result).isEqualTo(WriteResult.conflict(Optional.of(value("v1"))));
        assertThat(store.get(k)).contains(value("v1"));
    }

    @Test
    void update_withExactExpectedBytes_appliesAndReplacesValue() {
        store.create(k, value("v1"));

        assertThat(store.update(k, value("v1"), value("v2"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).contains(value("v2"));
    }

    @Test
    void update_withStaleExpectedBytes_conflictsAndKeepsValue() {
        store.create(k, value("v1"));
        store.update(k, value("v1"), value("v2"));

        WriteResult result = store.update(k, value("v1"), value("v3"));

        assertThat(result).isEqualTo(WriteResult.conflict(Optional.of(value("v2"))));
        assertThat(result.isCurrentKnown()).isTrue();
        assertThat(store.get(k)).contains(value("v2"));
    }

    @Test
    void update_comparesExactBytes_notPrefixesOrLengths() {
        store.create(k, value("abc"));

        assertThat(store.update(k, value("ab"), value("x")).isConflict())
                .as("expected is a prefix")
                .isTrue();
        assertThat(store.update(k, value("abcd"), value("x")).isConflict())
                .as("expected is longer")
                .isTrue();
        assertThat(store.update(k, value("abC"), value("x")).isConflict())
                .as("one byte differs")
                .isTrue();
        assertThat(store.update(k, MetaValue.empty(), value("x")).isConflict())
                .as("expected is empty")
                .isTrue();
        assertThat(store.get(k)).contains(value("abc"));
    }

    @Test
    void update_toTheSameBytes_applies() {
        store.create(k, value("v1"));

        assertThat(store.update(k, value("v1"), value("v1"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).contains(value("v1"));
    }

    @Test
    void update_absentKey_conflictsWithKnownAbsentCurrentAndCreatesNothing() {
        WriteResult result = store.update(k, value("v1"), value("v2"));

        assertThat(result).isEqualTo(WriteResult.conflict(Optional.empty()));
        assertThat(result.isCurrentKnown())
                .as("the backend knows the key is absent")
                .isTrue();
        assertThat(result.currentValue()).isEmpty();
        assertThat(store.get(k)).isEmpty();
    }

    @Test
    void delete_withExactExpectedBytes_removesKey() {
        store.create(k, value("v1"));

        assertThat(store.delete(k, value("v1"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).isEmpty();
    }

    @Test
    void delete_withStaleExpectedBytes_conflictsAndKeepsValue() {
        store.create(k, value("v1"));
        store.update(k, value("v1"), value("v2"));

        WriteResult result = store.delete(k, value("v1"));

        assertThat(result).isEqualTo(WriteResult.conflict(Optional.of(value("v2"))));
        assertThat(store.get(k)).contains(value("v2"));
    }

    @Test
    void delete_absentKey_conflictsWithKnownAbsentCurrent() {
        WriteResult result = store.delete(k, value("v1"));

        assertThat(result).isEqualTo(WriteResult.conflict(Optional.empty()));
        assertThat(result.isCurrentKnown()).isTrue();
        assertThat(store.get(k)).isEmpty();
    }

    @Test
    void create_afterDelete_appliesAgain() {
        store.create(k, value("v1"));
        store.delete(k, value("v1"));

        assertThat(store.create(k, value("v2"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).contains(value("v2"));
    }

    @Test
    void emptyValue_isAPresentValue_notAnAbsentKey() {
        assertThat(store.create(k, MetaValue.empty())).isEqualTo(WriteResult.applied());

        assertThat(store.get(k)).contains(MetaValue.empty());
        assertThat(store.create(k, value("x"))).isEqualTo(WriteResult.conflict(Optional.of(MetaValue.empty())));
        assertThat(store.update(k, MetaValue.empty(), value("x"))).isEqualTo(WriteResult.applied());
        assertThat(store.update(k, value("x"), MetaValue.empty())).isEqualTo(WriteResult.applied());
        assertThat(store.delete(k, MetaValue.empty())).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).isEmpty();
    }

    @Test
    void values_areKeptByteForByte_allByteValues() {
        byte[] bytes = new byte[512];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        MetaValue binary = MetaValue.of(bytes);

        store.create(k, binary);

        assertThat(store.get(k)).contains(binary);
        assertThat(store.get(k).orElseThrow().toByteArray()).isEqualTo(bytes);
    }

    @Test
    void apply_acceptsEveryMutationKind() {
        assertThat(store.apply(Mutation.create(k, value("a")))).isEqualTo(WriteResult.applied());
        assertThat(store.apply(Mutation.update(k, value("a"), value("b")))).isEqualTo(WriteResult.applied());
        assertThat(store.apply(Mutation.delete(k, value("b")))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).isEmpty();
    }

    @Test
    void writes_toOneKey_leaveOtherKeysAlone() {
        MetaKey sibling = key("tbl/ns1/orders2");
        MetaKey other = key("tbl2/ns1/orders");
        store.create(sibling, value("s"));
        store.create(other, value("o"));

        store.create(k, value("v1"));
        store.update(k, value("v1"), value("v2"));
        store.delete(k, value("v2"));

        assertThat(store.get(sibling)).contains(value("s"));
        assertThat(store.get(other)).contains(value("o"));
    }

    @Test
    void concurrentIncrements_fromManyThreads_loseNoUpdate() throws Exception {
        int threads = 8;
        int incrementsPerThread = 50;
        MetaKey counter = key("ctr/shared");
        store.create(counter, value("0"));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> workers = new ArrayList<>();
            IntStream.range(0, threads)
                    .forEach(t -> workers.add(pool.submit(() -> {
                        start.await();
                        int conflicts = 0;
                        for (int i = 0; i < incrementsPerThread; i++) {
                            MetaValue seen = store.get(counter).orElseThrow();
                            while (true) {
                                MetaValue next = value(Integer.toString(Integer.parseInt(seen.asUtf8()) + 1));
                                WriteResult result = store.update(counter, seen, next);
                                if (result.isApplied()) {
                                    break;
                                }
                                conflicts++;
                                seen = result.isCurrentKnown()
                                        ? result.currentValue().orElseThrow()
                                        : store.get(counter).orElseThrow();
                            }
                        }
                        return conflicts;
                    })));
            start.countDown();
            for (Future<Integer> worker : workers) {
                worker.get(60, TimeUnit.SECONDS); // safety net only
            }
        } finally {
            pool.shutdownNow();
            if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
                fail("increment workers did not stop");
            }
        }

        assertThat(store.get(counter)).contains(value(Integer.toString(threads * incrementsPerThread)));
    }
}
