package io.lake.meta.ops;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a journal write that expects a record's exact bytes (complete, abandon, recover):
 * applied, or a conflict because the record changed (another caller ended it, a later leader
 * recovered it, or it was collected). {@link #record()} is what the key holds as far as this call
 * knows: the record written, or on a conflict the current record (empty when absent).
 *
 * @since 0.1.0
 */
public final class JournalWriteResult {

    private final boolean applied;
    private final @Nullable OperationRecord record;

    private JournalWriteResult(boolean applied, @Nullable OperationRecord record) {
        this.applied = applied;
        this.record = record;
    }

    static JournalWriteResult applied(OperationRecord written) {
        return new JournalWriteResult(true, written);
    }

    static JournalWriteResult conflict(Optional<OperationRecord> current) {
        return new JournalWriteResult(false, current.orElse(null));
    }

    /** Whether the write applied. */
    public boolean isApplied() {
        return applied;
    }

    /** Whether the record had moved on: nothing was written. */
    public boolean isConflict() {
        return !applied;
    }

    /** Applied: the record written. Conflict: the current record (empty = absent). */
    public Optional<OperationRecord> record() {
        return Optional.ofNullable(record);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof JournalWriteResult
                && ((JournalWriteResult) o).applied == applied
                && Objects.equals(((JournalWriteResult) o).record, record);
    }

    @Override
    public int hashCode() {
        return Objects.hash(applied, record);
    }

    @Override
    public String toString() {
        return (applied ? "applied " : "conflict, current ") + (record == null ? "(absent)" : record);
    }
}
