package io.lake.meta.spi;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where a prefix iteration resumes: a partition (a shard for partitioned backends, always 0
 * otherwise) and, optionally, the last key returned, which the next page starts strictly after.
 * The key is held relative to the prefix, so a cursor can never point outside it.
 *
 * @since 0.1.0
 */
public final class PageCursor {

    private final int partition;
    private final @Nullable String afterSuffix;

    private PageCursor(int partition, @Nullable String afterSuffix) {
        if (partition < 0) {
            throw new InvalidArgumentException("partition must be >= 0, got " + partition);
        }
        this.partition = partition;
        this.afterSuffix = afterSuffix;
    }

    /**
     * The start of {@code partition}.
     *
     * @throws InvalidArgumentException if {@code partition} is negative
     */
    public static PageCursor startOf(int partition) {
        return new PageCursor(partition, null);
    }

    /**
     * Strictly after {@code lastKey} within {@code partition}.
     *
     * @throws InvalidArgumentException if an argument is null, {@code partition} is negative or
     *     {@code lastKey} does not lie under {@code prefix}
     */
    public static PageCursor after(int partition, KeyPrefix prefix, MetaKey lastKey) {
        if (!notNull(prefix, "prefix").contains(notNull(lastKey, "last key"))) {
            throw new InvalidArgumentException("key " + lastKey + " is not under prefix " + prefix);
        }
        return new PageCursor(
                partition, lastKey.toString().substring(prefix.toString().length()));
    }

    static PageCursor decoded(int partition, @Nullable String afterSuffix) {
        return new PageCursor(partition, afterSuffix);
    }

    /** The partition (shard) the position is in. */
    public int partition() {
        return partition;
    }

    /** The key to resume strictly after, rebuilt under {@code prefix}; empty at a partition's start. */
    public Optional<MetaKey> afterKey(KeyPrefix prefix) {
        notNull(prefix, "prefix");
        return afterSuffix == null ? Optional.empty() : Optional.of(MetaKey.of(prefix + afterSuffix));
    }

    Optional<String> afterSuffix() {
        return Optional.ofNullable(afterSuffix);
    }

    private static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof PageCursor
                && ((PageCursor) o).partition == partition
                && Objects.equals(((PageCursor) o).afterSuffix, afterSuffix);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, afterSuffix);
    }

    @Override
    public String toString() {
        return "PageCursor[partition=" + partition + (afterSuffix == null ? ", start" : ", after=" + afterSuffix) + "]";
    }
}
