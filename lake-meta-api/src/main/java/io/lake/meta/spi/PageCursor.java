package io.lake.meta.spi;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a prefix iteration resumes: a partition (a shard for partitioned backends, always 0
 * otherwise) and, optionally, the last key returned, which the next page starts strictly after.
 * The key is held relative to the prefix, so a cursor can never point outside it.
 */
public final class PageCursor {

    private final int partition;
    private final String afterSuffix;

    private PageCursor(int partition, String afterSuffix) {
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, got " + partition);
        }
        this.partition = partition;
        this.afterSuffix = afterSuffix;
    }

    /** The start of {@code partition}. */
    public static PageCursor startOf(int partition) {
        return new PageCursor(partition, null);
    }

    /** Strictly after {@code lastKey} within {@code partition}; {@code lastKey} must lie under {@code prefix}. */
    public static PageCursor after(int partition, KeyPrefix prefix, MetaKey lastKey) {
        if (!prefix.contains(lastKey)) {
            throw new IllegalArgumentException("key " + lastKey + " is not under prefix " + prefix);
        }
        return new PageCursor(partition, lastKey.toString().substring(prefix.toString().length()));
    }

    static PageCursor decoded(int partition, String afterSuffix) {
        return new PageCursor(partition, afterSuffix);
    }

    public int partition() {
        return partition;
    }

    /** The key to resume strictly after, rebuilt under {@code prefix}; empty at a partition's start. */
    public Optional<MetaKey> afterKey(KeyPrefix prefix) {
        return afterSuffix == null ? Optional.empty() : Optional.of(MetaKey.of(prefix + afterSuffix));
    }

    Optional<String> afterSuffix() {
        return Optional.ofNullable(afterSuffix);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PageCursor && ((PageCursor) o).partition == partition
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
