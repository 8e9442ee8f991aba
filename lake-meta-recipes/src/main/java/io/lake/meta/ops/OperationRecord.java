package io.lake.meta.ops;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.MetaValue;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One operation's record as read from the store: identity, payload digest, state, owner (the
 * leader and epoch that began or recovered it), the attempt number (1, plus one per recovery),
 * times, the outcome (completed) or reason (abandoned), and the exact bytes it was read from,
 * which every later write of it expects. Fields this library does not know survive every
 * read-modify-write. Immutable.
 *
 * @since 0.1.0
 */
public final class OperationRecord {

    private final OperationId id;
    private final String payloadDigest;
    private final OperationState state;
    private final OperationOwner owner;
    private final long attempt;
    private final long startedAtMillis;
    private final @Nullable Long endedAtMillis;
    private final @Nullable String outcome;
    private final @Nullable String reason;
    private final ObjectNode unknownFields;
    private final MetaValue storedValue;

    OperationRecord(
            OperationId id,
            String payloadDigest,
            OperationState state,
            OperationOwner owner,
            long attempt,
            long startedAtMillis,
            @Nullable Long endedAtMillis,
            @Nullable String outcome,
            @Nullable String reason,
            ObjectNode unknownFields,
            MetaValue storedValue) {
        this.id = id;
        this.payloadDigest = payloadDigest;
        this.state = state;
        this.owner = owner;
        this.attempt = attempt;
        this.startedAtMillis = startedAtMillis;
        this.endedAtMillis = endedAtMillis;
        this.outcome = outcome;
        this.reason = reason;
        this.unknownFields = unknownFields;
        this.storedValue = storedValue;
    }

    /** Which operation this records. */
    public OperationId id() {
        return id;
    }

    /** The digest of the payload the operation was begun with. */
    public String payloadDigest() {
        return payloadDigest;
    }

    /** Begun, completed or abandoned. */
    public OperationState state() {
        return state;
    }

    /** The leader that began the operation or last recovered it, with its epoch. */
    public OperationOwner owner() {
        return owner;
    }

    /** 1 when begun; one more on every recovery. */
    public long attempt() {
        return attempt;
    }

    /** When the operation was begun. */
    public Instant startedAt() {
        return Instant.ofEpochMilli(startedAtMillis);
    }

    /** When it ended; empty while in progress. */
    public Optional<Instant> endedAt() {
        return Optional.ofNullable(endedAtMillis).map(Instant::ofEpochMilli);
    }

    /** The recorded outcome of a completed operation. */
    public Optional<String> outcome() {
        return Optional.ofNullable(outcome);
    }

    /** Why an abandoned operation was abandoned. */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /** The exact bytes this record was read from (or written as). */
    public MetaValue storedValue() {
        return storedValue;
    }

    long startedAtMillis() {
        return startedAtMillis;
    }

    @Nullable
    Long endedAtMillis() {
        return endedAtMillis;
    }

    ObjectNode unknownFields() {
        return unknownFields;
    }

    /** Equal when read from equal bytes under the same key. */
    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof OperationRecord
                && ((OperationRecord) o).id.equals(id)
                && ((OperationRecord) o).storedValue.equals(storedValue);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, storedValue);
    }

    @Override
    public String toString() {
        return "OperationRecord[" + id + ", " + state.wireName() + ", owner=" + owner.holder() + "@" + owner.epoch()
                + ", attempt=" + attempt + (outcome == null ? "" : ", outcome=" + outcome)
                + (reason == null ? "" : ", reason=" + reason) + "]";
    }
}
