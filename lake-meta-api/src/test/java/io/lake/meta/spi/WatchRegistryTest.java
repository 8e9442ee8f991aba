package io.lake.meta.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.StoreClosedException;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Delivery by the registry, run step by step on a manual executor. */
class WatchRegistryTest {

    private static final KeyPrefix NS1 = KeyPrefix.of("tbl/ns1/");
    private static final MetaKey A = MetaKey.of("tbl/ns1/a");
    private static final MetaKey B = MetaKey.of("tbl/ns1/b");
    private static final MetaKey C = MetaKey.of("tbl/ns1/c");

    private final ManualExecutor executor = new ManualExecutor();
    private final WatchRegistry registry = new WatchRegistry("test store", () -> executor);
    private final List<WatchEvent> heard = new ArrayList<>();

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    private static WatchEvent changed(MetaKey key, String value) {
        return WatchEvent.changed(key, v(value));
    }

    private DispatchedWatch registered() {
        return registry.register(NS1, heard::add, () -> { });
    }

    @Test
    void nothingIsDelivered_beforeTheWatchStarts_thenTheInitialContentsFirst_thenTheChanges() {
        DispatchedWatch watch = registered();
        registry.publish(List.of(changed(B, "b2")));
        watch.addInitial(new Entry(A, v("a1")));
        watch.addInitial(new Entry(B, v("b1"))); // older than the change already collected for b
        watch.addInitial(new Entry(C, v("c1")));
        executor.runAll();
        assertThat(heard).isEmpty();

        watch.start();
        executor.runAll();

        assertThat(heard).containsExactly(WatchEvent.initial(A, v("a1")), WatchEvent.initial(C, v("c1")), changed(B, "b2"));
    }

    @Test
    void publishing_neverCallsTheListener_andAListenerThatFellBehind_getsEachKeysLatestValue_inTheOrderOfTheLatestChanges() {
        registered().start();

        registry.publish(List.of(changed(A, "1")));
        registry.publish(List.of(changed(B, "1")));
        registry.publish(List.of(changed(A, "2"), WatchEvent.deleted(C)));
        assertThat(heard).as("heard on the publishing thread").isEmpty();
        assertThat(executor.queued()).as("one drain task for the whole backlog").isEqualTo(1);
        executor.runAll();

        assertThat(heard).containsExactly(changed(B, "1"), changed(A, "2"), WatchEvent.deleted(C));
    }

    @Test
    void changesOutsideThePrefix_areDropped() {
        registered().start();

        registry.publish(List.of(changed(MetaKey.of("tbl/ns10/a"), "x"), changed(MetaKey.of("ops/ns1/a"), "x"),
                changed(MetaKey.of("tbl/ns1"), "x"), changed(A, "in")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "in"));
    }

    @Test
    void close_dropsWhatWasPending_isIdempotent_andUnregisters() {
        DispatchedWatch watch = registered();
        watch.start();
        registry.publish(List.of(changed(A, "1")));

        watch.close();
        watch.close();
        registry.publish(List.of(changed(B, "1")));
        executor.runAll();

        assertThat(heard).isEmpty();
        assertThat(registry.hasWatches()).isFalse();
    }

    @Test
    void aListenerClosingItsOwnWatch_hearsNothingMore() {
        Watch[] self = new Watch[1];
        DispatchedWatch watch = registry.register(NS1, event -> {
            heard.add(event);
            self[0].close();
        }, () -> { });
        self[0] = watch.start();

        registry.publish(List.of(changed(A, "1"), changed(B, "1")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "1"));
    }

    @Test
    void aListenerThatThrows_losesThatEventOnly() {
        registry.register(NS1, event -> {
            heard.add(event);
            if (event.key().equals(A)) {
                throw new IllegalStateException("listener bug");
            }
        }, () -> { }).start();

        registry.publish(List.of(changed(A, "1"), changed(B, "1")));
        executor.runAll();
        registry.publish(List.of(changed(A, "2")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "1"), changed(B, "1"), changed(A, "2"));
    }

    @Test
    void aListenerThatThrowsAnError_endsItsWatch_andTheErrorPropagates() {
        DispatchedWatch watch = registry.register(NS1, event -> {
            heard.add(event);
            throw new AssertionError("an Error, not an exception");
        }, () -> { });
        watch.start();

        registry.publish(List.of(changed(A, "1"), changed(B, "1")));

        assertThatThrownBy(executor::runAll).isInstanceOf(AssertionError.class);
        assertThat(watch.isClosed()).isTrue();
        assertThat(heard).containsExactly(changed(A, "1"));
    }

    @Test
    void closingTheRegistry_closesEveryWatch_andRefusesNewOnes() {
        DispatchedWatch first = registered();
        first.start();
        DispatchedWatch loading = registered(); // still reading its initial contents
        registry.publish(List.of(changed(A, "1")));

        registry.close();
        registry.close();
        executor.runAll();

        assertThat(heard).isEmpty();
        assertThat(first.isClosed()).isTrue();
        assertThatThrownBy(loading::start).isInstanceOf(StoreClosedException.class).hasMessageContaining("test store");
        assertThatThrownBy(this::registered).isInstanceOf(StoreClosedException.class);
        assertThat(executor.isShutdown()).isTrue();
    }

    @Test
    void nullArguments_areInvalidArguments_andRegisterNothing() {
        assertThatThrownBy(() -> registry.register(null, heard::add, () -> { })).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("prefix");
        assertThatThrownBy(() -> registry.register(NS1, null, () -> { })).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("listener");
        assertThat(registry.hasWatches()).isFalse();
        assertThatThrownBy(() -> registry.watch(null, NS1, heard::add)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("source");
        assertThatThrownBy(() -> registry.publish(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> WatchRegistry.changesOf(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> WatchRegistry.changesOf(java.util.Arrays.asList(Mutation.create(A, v("1")), null)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new WatchRegistry(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void theChangesOfMutations_areTheirNewValues_orDeletions() {
        assertThat(WatchRegistry.changesOf(List.of(Mutation.create(A, v("1")), Mutation.update(B, v("1"), v("2")),
                Mutation.delete(C, v("3"))))).containsExactly(changed(A, "1"), changed(B, "2"), WatchEvent.deleted(C));
    }
}
