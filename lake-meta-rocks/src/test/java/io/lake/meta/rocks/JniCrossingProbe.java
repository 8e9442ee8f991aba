package io.lake.meta.rocks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Not a test: measures whether a lone writer's three JNI crossings (the batch's put, the write,
 * the batch's clear) cost more than raw RocksDB's one {@code put}, unsynced, on 16 keys
 * rewritten in turn (the bench's 1-thread CAS shape). Alternates the two, six rounds.
 *
 * <pre>{@code
 * java -cp <test classpath> io.lake.meta.rocks.JniCrossingProbe
 * }</pre>
 */
public final class JniCrossingProbe {

    private JniCrossingProbe() {}

    public static void main(String[] args) throws Exception {
        RocksDB.loadLibrary();
        Path directory = Files.createTempDirectory("jni-crossing-probe");
        try (Options options = new Options().setCreateIfMissing(true);
                RocksDB db = RocksDB.open(options, directory.toString());
                WriteOptions unsynced = new WriteOptions();
                WriteBatch batch = new WriteBatch()) {
            byte[][] keys = new byte[16][];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = ("cas/writer-" + i).getBytes(StandardCharsets.UTF_8);
            }
            byte[] value = new byte[128];
            int writes = 1_000_000;
            for (int round = 0; round < 6; round++) {
                long start = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    db.put(unsynced, keys[i & 15], value);
                }
                long puts = System.nanoTime() - start;
                start = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    batch.put(keys[i & 15], value);
                    db.write(unsynced, batch);
                    batch.clear();
                }
                long batched = System.nanoTime() - start;
                System.out.printf(
                        Locale.ROOT,
                        "put %.0f ns, batch put + write + clear %.0f ns, put / batched %.2f%n",
                        puts / (double) writes,
                        batched / (double) writes,
                        puts / (double) batched);
            }
        } finally {
            ProbeDirectory.delete(directory);
        }
    }
}
