package io.lake.meta.rocks;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The on-disk format marker. A store records {@code lake-meta-rocks/<version>} under an internal
 * key when it is created; opening checks it, so a directory of another program or of another
 * format version is refused instead of misread.
 */
final class StoreFormat {

    /** The on-disk format this library writes and reads. */
    static final int VERSION = 1;

    private static final String MARKER_PREFIX = "lake-meta-rocks/";

    private StoreFormat() {
    }

    static byte[] marker() {
        return (MARKER_PREFIX + VERSION).getBytes(StandardCharsets.UTF_8);
    }

    /** The format version a marker names, or empty when it is not a lake-meta marker at all. */
    static Optional<String> versionOf(byte[] marker) {
        String text = new String(marker, StandardCharsets.UTF_8);
        return text.startsWith(MARKER_PREFIX) ? Optional.of(text.substring(MARKER_PREFIX.length())) : Optional.empty();
    }
}
