package io.lake.meta.bench;

import io.lake.meta.rocks.Durability;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * RocksDB JNI called directly, with RocksDB's default options (create if missing) and the same
 * sync setting: what the hardware and JNI allow. lake-meta's store adds only table Bloom filters
 * (which reads consult, its creates' absence checks above all; a plain put never does) and its own
 * info log.
 */
final class RawRocksStore implements BenchStore {

    static {
        RocksDB.loadLibrary();
    }

    private final Options options = new Options().setCreateIfMissing(true);
    private final WriteOptions writeOptions;
    private final ReadOptions reads = new ReadOptions();
    private final RocksDB db;

    RawRocksStore(Path directory, Durability durability) {
        writeOptions = new WriteOptions().setSync(durability == Durability.SYNCED_WAL);
        try {
            db = RocksDB.open(options, directory.toString());
        } catch (RocksDBException e) {
            throw new IllegalStateException("could not open raw RocksDB at " + directory, e);
        }
    }

    @Override
    public boolean compareAndSet(BenchKey key, BenchValue expected, BenchValue next) {
        return put(key, next);
    }

    @Override
    public boolean create(BenchKey key, BenchValue value) {
        return put(key, value);
    }

    private boolean put(BenchKey key, BenchValue value) {
        try {
            db.put(writeOptions, key.utf8(), value.bytes());
            return true;
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Object get(BenchKey key) {
        try {
            return db.get(reads, key.utf8());
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public long listAll(String prefix, int pageSize) {
        byte[] start = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] end = start.clone();
        end[end.length - 1]++; // prefixes end in '/', never in 0xff
        long entries = 0;
        try (Slice upper = new Slice(end);
                ReadOptions bounded = new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(bounded)) {
            for (it.seek(start); it.isValid(); it.next()) {
                byte[] k = it.key();
                byte[] v = it.value();
                entries += (k.length + v.length) > 0 ? 1 : 0;
            }
            it.status();
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        return entries;
    }

    @Override
    public void createAll(List<BenchKey> keys, BenchValue value) {
        try (WriteBatch batch = new WriteBatch()) {
            for (BenchKey key : keys) {
                batch.put(key.utf8(), value.bytes());
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        db.close();
        reads.close();
        writeOptions.close();
        options.close();
    }
}
