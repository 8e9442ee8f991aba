package io.lake.meta.ops;

import io.lake.meta.internal.Checks;

/**
 * The answer to {@link OperationJournal#begin}: this call started the operation, or the journal
 * already holds it (with the same payload digest) and this is its recorded state.
 *
 * @param kind which of the four answers
 * @param record the record: the one this call wrote, or the one the journal holds
 * @since 0.1.0
 */
public record BeginResult(Kind kind, OperationRecord record) {

    /**
     * The four answers of a begin.
     *
     * @since 0.1.0
     */
    public enum Kind {
        /** This call recorded the operation in progress: run it, then complete or abandon it. */
        STARTED,
        /** Already in progress, run by {@link OperationRecord#owner()}: do not run it again; ask later. */
        IN_PROGRESS,
        /** Already completed: answer with {@link OperationRecord#outcome()}. */
        COMPLETED,
        /** Already abandoned: answer with {@link OperationRecord#reason()}. */
        ABANDONED
    }

    public BeginResult {
        Checks.notNull(kind, "kind");
        Checks.notNull(record, "record");
    }

    static BeginResult started(OperationRecord record) {
        return new BeginResult(Kind.STARTED, record);
    }

    static BeginResult recorded(OperationRecord record) {
        return new BeginResult(
                switch (record.state()) {
                    case IN_PROGRESS -> Kind.IN_PROGRESS;
                    case COMPLETED -> Kind.COMPLETED;
                    case ABANDONED -> Kind.ABANDONED;
                },
                record);
    }

    /** Whether this call started the operation (and so must run it). */
    public boolean isStarted() {
        return kind == Kind.STARTED;
    }
}
