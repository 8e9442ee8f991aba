package io.lake.meta.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.MetaValue;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One table's registration as read from the store: its identity, its spec, a generation that
 * goes up by one on every change (register = 1, each update, drop and purge step + 1), its
 * state, and the exact bytes it was read from, which every later write of it expects.
 *
 * <p>Fields this library does not know (written by a newer version or another tool) are kept and
 * written back unchanged by every read-modify-write. Immutable.
 *
 * @since 0.1.0
 */
public final class TableRegistration {

    private final TableId id;
    private final TableSpec spec;
    private final long generation;
    private final TableState state;
    private final @Nullable Long droppedAtMillis;
    private final @Nullable Long purgeStartedAtMillis;
    private final ObjectNode unknownFields;
    private final MetaValue storedValue;

    TableRegistration(
            TableId id,
            TableSpec spec,
            long generation,
            TableState state,
            @Nullable Long droppedAtMillis,
            @Nullable Long purgeStartedAtMillis,
            ObjectNode unknownFields,
            MetaValue storedValue) {
        this.id = id;
        this.spec = spec;
        this.generation = generation;
        this.state = state;
        this.droppedAtMillis = droppedAtMillis;
        this.purgeStartedAtMillis = purgeStartedAtMillis;
        this.unknownFields = unknownFields;
        this.storedValue = storedValue;
    }

    /** The table this registers. */
    public TableId id() {
        return id;
    }

    /** What the table is: location, format, properties. */
    public TableSpec spec() {
        return spec;
    }

    /** Where the table's data lives. */
    public String location() {
        return spec.location();
    }

    /** The table's format, such as {@code iceberg}. */
    public String format() {
        return spec.format();
    }

    /** The table's properties, unmodifiable. */
    public Map<String, String> properties() {
        return spec.properties();
    }

    /** 1 when registered; one more on every change. */
    public long generation() {
        return generation;
    }

    /** Live or dropped (a tombstone). */
    public TableState state() {
        return state;
    }

    /** Whether this is a tombstone: the table was dropped and its cleanup is pending or running. */
    public boolean isDropped() {
        return state.isTombstone();
    }

    /** When it was dropped (by the dropping node's clock); empty while active. */
    public Optional<Instant> droppedAt() {
        return Optional.ofNullable(droppedAtMillis).map(Instant::ofEpochMilli);
    }

    /** When its cleanup started; empty unless purging. */
    public Optional<Instant> purgeStartedAt() {
        return Optional.ofNullable(purgeStartedAtMillis).map(Instant::ofEpochMilli);
    }

    /** The exact bytes this registration was read from (or written as). */
    public MetaValue storedValue() {
        return storedValue;
    }

    /** The fields this library does not know, to be written back unchanged; never modified. */
    ObjectNode unknownFields() {
        return unknownFields;
    }

    @Nullable
    Long droppedAtMillis() {
        return droppedAtMillis;
    }

    /** Equal when read from equal bytes under the same key. */
    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof TableRegistration
                && ((TableRegistration) o).id.equals(id)
                && ((TableRegistration) o).storedValue.equals(storedValue);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, storedValue);
    }

    @Override
    public String toString() {
        return "TableRegistration[" + id + ", " + state.wireName() + ", generation=" + generation + ", location="
                + spec.location() + ", format=" + spec.format() + "]";
    }
}
