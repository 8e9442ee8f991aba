package io.lake.meta.bench;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.rocks.Durability;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The lake-meta RocksDB store behind the bench facade, used as an application would use it. */
final class LakeMetaRocksStore implements BenchStore {

    private final MetaStore store;

    LakeMetaRocksStore(Path directory, Durability durability) {
        this.store = RocksDbMetaStore.builder()
                .directory(directory)
                .durability(durability)
                .build();
    }

    MetaStore metaStore() {
        return store;
    }

    @Override
    public boolean compareAndSet(BenchKey key, BenchValue expected, BenchValue next) {
        return store.update(key.meta(), expected.meta(), next.meta()).isApplied();
    }

    @Override
    public boolean create(BenchKey key, BenchValue value) {
        return store.create(key.meta(), value.meta()).isApplied();
    }

    @Override
    public Object get(BenchKey key) {
        return store.get(key.meta());
    }

    @Override
    public long listAll(String prefix, int pageSize) {
        long entries = 0;
        Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.of(prefix), pageSize));
        while (request.isPresent()) {
            Page page = store.page(request.get());
            entries += page.entries().size();
            request = request.get().next(page);
        }
        return entries;
    }

    @Override
    public void createAll(List<BenchKey> keys, BenchValue value) {
        Transaction.Builder transaction = Transaction.builder();
        keys.forEach(key -> transaction.create(key.meta(), value.meta()));
        if (!store.transact(transaction.build()).isApplied()) {
            throw new IllegalStateException("a bulk-load transaction did not apply: the keys were not fresh");
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
