package io.lake.meta;

/**
 * A monotonic time source in nanoseconds, like {@link System#nanoTime()}: only differences
 * between readings mean anything. The election measures its local lease deadline with it, so a
 * wall-clock step (NTP correction, operator change) can never extend the time a leader
 * believes it leads. Inject a manual ticker in tests.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface Ticker {

    /** The current reading, in nanoseconds; never decreases. */
    long read();

    /** {@link System#nanoTime()}. */
    static Ticker system() {
        return System::nanoTime;
    }
}
