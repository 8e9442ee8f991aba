package io.lake.meta.bench;

import io.lake.meta.MetaValue;
import java.util.Arrays;

/** A value prepared once for every backend, as {@link BenchKey} is. */
@SuppressWarnings("ArrayRecordComponent") // a holder of prepared bytes, never compared or hashed
public record BenchValue(MetaValue meta, byte[] bytes) {

    /** Size of every value the benchmarks write: a small JSON table record is about this long. */
    public static final int SIZE = 128;

    public static BenchValue of(byte[] bytes) {
        return new BenchValue(MetaValue.of(bytes), bytes.clone());
    }

    /** {@link #SIZE} bytes that differ from every other seed's. */
    public static BenchValue seeded(long seed) {
        byte[] bytes = new byte[SIZE];
        Arrays.fill(bytes, (byte) 'x');
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (seed >>> (8 * i));
        }
        return of(bytes);
    }
}
