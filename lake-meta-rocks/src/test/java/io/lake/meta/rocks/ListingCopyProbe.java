package io.lake.meta.rocks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteOptions;

/**
 * Not a test: two ways to copy an iterator's entries out over a listing of 100 000 keys of 128-byte
 * values. {@code key()} / {@code value()} allocate each array in native code; {@code key(byte[])}
 * / {@code value(byte[])} fill a reused Java array, which is then copied. Every copy is kept
 * for a while (as a page keeps its entries), so the JIT cannot drop it. Ten rounds of 20
 * listings each way, each way first in every other round.
 *
 * <pre>{@code
 * java -cp <test classpath> io.lake.meta.rocks.ListingCopyProbe
 * }</pre>
 */
public final class ListingCopyProbe {

    private static final int KEYS = 100_000;
    private static final int LISTINGS = 20;
    private static final byte[][] KEPT = new byte[2000][];

    private ListingCopyProbe() {}

    public static void main(String[] args) throws Exception {
        RocksDB.loadLibrary();
        Path directory = Files.createTempDirectory("listing-copy-probe");
        try (Options options = new Options().setCreateIfMissing(true);
                RocksDB db = RocksDB.open(options, directory.toString());
                WriteOptions writes = new WriteOptions()) {
            for (int i = 0; i < KEYS; i++) {
                db.put(writes, ("list/table-" + i).getBytes(StandardCharsets.UTF_8), new byte[128]);
            }
            long expectedBytes = expectedBytes();
            for (int round = 0; round < 10; round++) {
                long arrays;
                long reused;
                if (round % 2 == 0) { // each way goes first in half of the rounds
                    arrays = time(db, false, expectedBytes);
                    reused = time(db, true, expectedBytes);
                } else {
                    reused = time(db, true, expectedBytes);
                    arrays = time(db, false, expectedBytes);
                }
                System.out.printf(
                        Locale.ROOT,
                        "round %d: native arrays %.1f ms, reused array %.1f ms (%.2f)%n",
                        round,
                        arrays / 1e6 / LISTINGS,
                        reused / 1e6 / LISTINGS,
                        (double) reused / arrays);
            }
        } finally {
            ProbeDirectory.delete(directory);
        }
    }

    /** How long {@code LISTINGS} listings take one way; checked against the bytes they must copy, after the clock stops. */
    private static long time(RocksDB db, boolean reuse, long expectedBytes) {
        byte[] keys = new byte[256];
        byte[] values = new byte[1024];
        long bytes = 0;
        long start = System.nanoTime();
        for (int listing = 0; listing < LISTINGS; listing++) {
            try (Slice upper = new Slice("list0".getBytes(StandardCharsets.UTF_8));
                    ReadOptions bounded = new ReadOptions().setIterateUpperBound(upper);
                    RocksIterator it = db.newIterator(bounded)) {
                int entry = 0;
                for (it.seek("list/".getBytes(StandardCharsets.UTF_8)); it.isValid(); it.next()) {
                    byte[] key = reuse ? Arrays.copyOf(keys, it.key(keys)) : it.key();
                    byte[] value = reuse ? Arrays.copyOf(values, it.value(values)) : it.value();
                    KEPT[entry % KEPT.length] = key; // kept, as a page keeps them: the copies must be made
                    KEPT[(entry + 1) % KEPT.length] = value;
                    entry += 2;
                    bytes += key.length + value.length;
                }
            }
        }
        long elapsed = System.nanoTime() - start;
        if (bytes != expectedBytes) {
            throw new IllegalStateException("copied " + bytes + " bytes, expected " + expectedBytes);
        }
        return elapsed;
    }

    /** The keys' and values' bytes that {@code LISTINGS} listings copy. */
    private static long expectedBytes() {
        long perListing = (long) KEYS * 128;
        for (int i = 0; i < KEYS; i++) {
            perListing += ("list/table-" + i).length();
        }
        return LISTINGS * perListing;
    }
}
