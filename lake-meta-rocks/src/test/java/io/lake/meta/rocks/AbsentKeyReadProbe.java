package io.lake.meta.rocks;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ByteBufferGetStatus;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Status;
import org.rocksdb.WriteOptions;

/**
 * Not a test: what the four ways RocksJava offers cost to read a batch of 16 absent keys (a batch
 * of 16 creates' checks), with 300 000 keys stored by 16 writers, the store's table filters on.
 * Five rounds of 20 000 batches each way.
 *
 * <pre>{@code
 * java -cp <test classpath> io.lake.meta.rocks.AbsentKeyReadProbe
 * }</pre>
 */
public final class AbsentKeyReadProbe {

    private static final int WRITERS = 16;

    private AbsentKeyReadProbe() {}

    public static void main(String[] args) throws Exception {
        RocksDB.loadLibrary();
        Path directory = Files.createTempDirectory("absent-key-read-probe");
        try (BloomFilter filter = new BloomFilter(10);
                Options options = new Options()
                        .setCreateIfMissing(true)
                        .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(filter));
                RocksDB db = RocksDB.open(options, directory.toString());
                WriteOptions writes = new WriteOptions();
                ReadOptions reads = new ReadOptions()) {
            int stored = 300_000;
            for (int w = 0; w < WRITERS; w++) {
                for (int i = 0; i < stored / WRITERS; i++) {
                    db.put(writes, key(w, i), new byte[128]);
                }
            }
            int batches = 20_000;
            List<List<byte[]>> asked = new ArrayList<>();
            for (int b = 0; b < batches; b++) {
                List<byte[]> batch = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    batch.add(key(w, stored + b));
                }
                asked.add(batch);
            }
            ByteBuffer[] keyBuffers = new ByteBuffer[WRITERS];
            ByteBuffer[] valueBuffers = new ByteBuffer[WRITERS];
            for (int i = 0; i < WRITERS; i++) {
                keyBuffers[i] = ByteBuffer.allocateDirect(64);
                valueBuffers[i] = ByteBuffer.allocateDirect(256);
            }
            for (int round = 0; round < 5; round++) {
                int found = 0;
                long start = System.nanoTime();
                for (List<byte[]> batch : asked) {
                    for (byte[] value : db.multiGetAsList(reads, batch)) {
                        found += value == null ? 0 : 1;
                    }
                }
                long multiGet = System.nanoTime() - start;
                start = System.nanoTime();
                for (List<byte[]> batch : asked) {
                    for (byte[] key : batch) {
                        found += db.get(reads, key) == null ? 0 : 1;
                    }
                }
                long gets = System.nanoTime() - start;
                start = System.nanoTime();
                for (List<byte[]> batch : asked) {
                    List<ByteBuffer> keys = new ArrayList<>(WRITERS);
                    List<ByteBuffer> values = new ArrayList<>(WRITERS);
                    for (int i = 0; i < WRITERS; i++) {
                        keyBuffers[i].clear();
                        keyBuffers[i].put(batch.get(i)).flip();
                        valueBuffers[i].clear();
                        keys.add(keyBuffers[i]);
                        values.add(valueBuffers[i]);
                    }
                    for (ByteBufferGetStatus status : db.multiGetByteBuffers(reads, keys, values)) {
                        found += status.status.getCode() == Status.Code.Ok ? 1 : 0;
                    }
                }
                long byteBuffers = System.nanoTime() - start;
                start = System.nanoTime();
                for (List<byte[]> batch : asked) {
                    for (byte[] key : batch) {
                        found += db.keyMayExist(key, null) ? 1 : 0;
                    }
                }
                long mayExist = System.nanoTime() - start;
                System.out.printf(
                        Locale.ROOT,
                        "per batch of %d absent keys: multiGetAsList %.1f us, %d gets %.1f us,"
                                + " multiGetByteBuffers %.1f us, keyMayExist %.1f us (found %d)%n",
                        WRITERS,
                        micros(multiGet, batches),
                        WRITERS,
                        micros(gets, batches),
                        micros(byteBuffers, batches),
                        micros(mayExist, batches),
                        found);
            }
        } finally {
            ProbeDirectory.delete(directory);
        }
    }

    private static byte[] key(int writer, int n) {
        return ("new/writer-" + writer + "/" + n).getBytes(StandardCharsets.UTF_8);
    }

    private static double micros(long nanos, int batches) {
        return nanos / 1e3 / batches;
    }
}
