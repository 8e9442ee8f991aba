package io.lake.meta.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ForwardingMetaStoreTest {

    private static final MetaKey KEY = MetaKey.of("tbl/ns1/t");
    private static final MetaValue VALUE = MetaValue.utf8("v");

    /** Records every call and answers with fixed results. */
    private static final class Recording implements MetaStore {
        final List<Object> calls = new ArrayList<>();
        final Optional<MetaValue> read = Optional.of(VALUE);
        final WriteResult written = WriteResult.conflictWithUnknownCurrent();
        final GuardedResult guarded = GuardedResult.guardRejected();
        final TransactionResult transacted =
                TransactionResult.notApplied(List.of(TransactionFailure.currentUnknown(KEY)));
        final int keyLimit = 7;
        final Page paged = new Page(List.of(), Optional.empty(), PageCost.items(0));
        final Watch watched = new Watch() {
            @Override
            public KeyPrefix prefix() {
                return KeyPrefix.of("tbl/ns1/");
            }

            @Override
            public void close() {}
        };

        @Override
        public Optional<MetaValue> get(MetaKey key) {
            calls.add(key);
            return read;
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            calls.add(mutation);
            return written;
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation mutation) {
            calls.add(mutation);
            return guarded;
        }

        @Override
        public TransactionResult transact(Transaction transaction) {
            calls.add(transaction);
            return transacted;
        }

        @Override
        public int maxTransactionKeys() {
            calls.add("maxTransactionKeys");
            return keyLimit;
        }

        @Override
        public int maxTransactionBytes() {
            calls.add("maxTransactionBytes");
            return 1234;
        }

        @Override
        public Page page(PageRequest request) {
            calls.add(request);
            return paged;
        }

        @Override
        public Watch watch(KeyPrefix prefix, WatchListener listener) {
            calls.add(prefix);
            calls.add(listener);
            return watched;
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }

    private final Recording inner = new Recording();
    private final ForwardingMetaStore store = new ForwardingMetaStore(inner) {};

    @Test
    void everyCallIsForwardedWithItsArgumentAndAnswer() {
        Mutation mutation = Mutation.create(KEY, VALUE);
        GuardedMutation guarded = new GuardedMutation(MetaKey.of("tbl/ns1/lease"), VALUE, mutation);
        PageRequest request = PageRequest.first(KeyPrefix.of("tbl/ns1/"), 10);
        Transaction transaction = Transaction.builder()
                .requireAbsent(MetaKey.of("tbl/ns1/u"))
                .apply(mutation)
                .build();
        KeyPrefix watched = KeyPrefix.of("tbl/ns2/");
        WatchListener listener = event -> {};

        assertThat(store.get(KEY)).isSameAs(inner.read);
        assertThat(store.apply(mutation)).isSameAs(inner.written);
        assertThat(store.applyGuarded(guarded)).isSameAs(inner.guarded);
        assertThat(store.transact(transaction)).isSameAs(inner.transacted);
        assertThat(store.maxTransactionKeys()).isEqualTo(inner.keyLimit);
        assertThat(store.maxTransactionBytes()).isEqualTo(1234);
        assertThat(store.page(request)).isSameAs(inner.paged);
        assertThat(store.watch(watched, listener)).isSameAs(inner.watched);
        store.close();

        assertThat(inner.calls)
                .containsExactly(
                        KEY,
                        mutation,
                        guarded,
                        transaction,
                        "maxTransactionKeys",
                        "maxTransactionBytes",
                        request,
                        watched,
                        listener,
                        "close");
        assertThat(store.delegate()).isSameAs(inner);
    }

    @Test
    void convenienceMethodsGoThroughTheDecoratorsOverrides() {
        List<Object> seen = new ArrayList<>();
        ForwardingMetaStore decorator = new ForwardingMetaStore(inner) {
            @Override
            public WriteResult apply(Mutation mutation) {
                seen.add(mutation);
                return super.apply(mutation);
            }

            @Override
            public Page page(PageRequest request) {
                seen.add(request);
                return super.page(request);
            }

            @Override
            public TransactionResult transact(Transaction transaction) {
                seen.add(transaction);
                return super.transact(transaction);
            }
        };

        decorator.create(KEY, VALUE);
        decorator.page(KeyPrefix.of("tbl/ns1/"), 5);
        decorator.transact(List.of(), List.of(Mutation.create(KEY, VALUE)));

        assertThat(seen).hasSize(3);
        assertThat(inner.calls).isEqualTo(seen);
    }

    @Test
    void aDecoratorThatDoesNotOwnItsDelegateLeavesItOpen() {
        ForwardingMetaStore borrowing = new ForwardingMetaStore(inner) {
            @Override
            public void close() {}
        };

        borrowing.close();

        assertThat(inner.calls).isEmpty();
    }

    @Test
    void theDelegateMustNotBeNull() {
        assertThatThrownBy(() -> new ForwardingMetaStore(null) {}).isInstanceOf(InvalidArgumentException.class);
    }
}
