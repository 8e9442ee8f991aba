package io.lake.meta.arguments;

import io.lake.meta.*;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.util.Optional;

/** A store that fails the test on any call: for builders and checks that must do no I/O. */
public final class NoIoMetaStore implements MetaStore {

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        throw new AssertionError("no I/O expected");
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        throw new AssertionError("no I/O expected");
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        throw new AssertionError("no I/O expected");
    }

    @Override
    public Page page(PageRequest request) {
        throw new AssertionError("no I/O expected");
    }

    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        throw new AssertionError("no I/O expected");
    }

    @Override
    public void close() {}
}
