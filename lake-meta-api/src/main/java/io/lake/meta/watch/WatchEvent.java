package io.lake.meta.watch;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a watch reports about one key: its latest value, or that it was deleted.
 *
 * <p>An <em>initial</em> event reports a key present when the watch started (its value as the
 * watch found it); every other event reports a change. Events may skip values (a listener that
 * falls behind gets only the latest value of each key) and may repeat one, but for each key they
 * never go back: no event carries a value older than one already reported for that key.
 * Immutable.
 *
 * @since 0.1.0
 */
public final class WatchEvent {

    private final MetaKey key;
    private final @Nullable MetaValue value; // null: the key was deleted
    private final boolean initial;

    private WatchEvent(MetaKey key, @Nullable MetaValue value, boolean initial) {
        if (key == null) {
            throw new InvalidArgumentException("key must not be null");
        }
        this.key = key;
        this.value = value;
        this.initial = initial;
    }

    /**
     * {@code key} was present, holding {@code value}, when the watch started.
     *
     * @throws InvalidArgumentException if an argument is null
     */
    public static WatchEvent initial(MetaKey key, MetaValue value) {
        return new WatchEvent(key, requireValue(value), true);
    }

    /**
     * {@code key} now holds {@code value} (it was created or updated).
     *
     * @throws InvalidArgumentException if an argument is null
     */
    public static WatchEvent changed(MetaKey key, MetaValue value) {
        return new WatchEvent(key, requireValue(value), false);
    }

    /**
     * {@code key} was deleted.
     *
     * @throws InvalidArgumentException if {@code key} is null
     */
    public static WatchEvent deleted(MetaKey key) {
        return new WatchEvent(key, null, false);
    }

    /** The key the event is about; under the watch's prefix. */
    public MetaKey key() {
        return key;
    }

    /** The key's latest value; empty when it was deleted. */
    public Optional<MetaValue> value() {
        return Optional.ofNullable(value);
    }

    /** Whether the key was deleted. */
    public boolean isDeletion() {
        return value == null;
    }

    /** Whether the event reports the key as the watch found it when it started, rather than a change. */
    public boolean isInitial() {
        return initial;
    }

    private static MetaValue requireValue(MetaValue value) {
        if (value == null) {
            throw new InvalidArgumentException("value must not be null; a deleted key is WatchEvent.deleted(key)");
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WatchEvent other
                && other.key.equals(key)
                && Objects.equals(other.value, value)
                && other.initial == initial;
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, value, initial);
    }

    @Override
    public String toString() {
        if (value == null) {
            return "deleted " + key;
        }
        return (initial ? "initial " : "changed ") + key + " = " + value;
    }
}
