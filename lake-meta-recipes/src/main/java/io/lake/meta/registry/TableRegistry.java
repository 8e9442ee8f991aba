package io.lake.meta.registry;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteResult;
import io.lake.meta.internal.Checks;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Typed table registrations on a {@link MetaStore}, under {@code tbl/<namespace>/<name>}.
 *
 * <p>Every write is one conditional write on one key (create when absent, otherwise a
 * compare-and-set on the exact bytes read), so passing a
 * {@link io.lake.meta.fenced.FencedMetaStore} fences all of them: a deposed leader registers,
 * updates, drops and purges nothing. A lost race is a {@link RegistryWriteResult} conflict
 * carrying the current registration, never an exception.
 *
 * <p>A drop does not delete: it replaces the registration with a tombstone (state
 * {@link TableState#DROPPED}) that pages report. Only the maintenance sweep removes it, in two
 * compare-and-set steps around the cleanup of the table's data: {@link #startPurge} (state
 * {@link TableState#PURGING}), then, once the cleanup finished, {@link #deleteTombstone}. A crash in
 * between leaves the purging tombstone, so the next sweep claims it again, cleans up again and
 * deletes it. A dropped name is registered again by waiting for the sweep or by {@link #supersede}.
 *
 * <p>Thread-safe; the store is the caller's and is never closed here.
 *
 * @since 0.1.0
 */
public final class TableRegistry {

    private final MetaStore store;
    private final Clock clock;

    private TableRegistry(MetaStore store, Clock clock) {
        this.store = Checks.notNull(store, "store");
        this.clock = Checks.notNull(clock, "clock");
    }

    /** A registry on {@code store} (pass a fenced store to fence every write), stamping drops with UTC wall time. */
    public static TableRegistry over(MetaStore store) {
        return over(store, Clock.systemUTC());
    }

    /** A registry on {@code store} whose drop and purge times come from {@code clock}. */
    public static TableRegistry over(MetaStore store, Clock clock) {
        return new TableRegistry(store, clock);
    }

    /**
     * The first page of every registration, tombstones included.
     *
     * @throws InvalidArgumentException if {@code limit} is outside 1..10 000
     */
    public static TypedPageRequest<TableRegistration> allNamespaces(int limit) {
        return TypedPageRequest.of(PageRequest.first(TableId.allTables(), limit));
    }

    /**
     * The first page of the registrations in {@code namespace} (never those of another namespace
     * that starts with the same characters).
     *
     * @throws InvalidArgumentException if the namespace is invalid or {@code limit} is outside 1..10 000
     */
    public static TypedPageRequest<TableRegistration> inNamespace(String namespace, int limit) {
        return TypedPageRequest.of(PageRequest.first(TableId.prefixOf(namespace), limit));
    }

    /**
     * Reads a table's registration, tombstones included.
     *
     * @throws CorruptRegistrationException if the key holds something that is not a registration
     */
    public Optional<TableRegistration> get(TableId id) {
        Checks.notNull(id, "id");
        MetaKey key = id.key();
        return store.get(key).map(value -> RegistrationCodec.decode(key, value));
    }

    /**
     * Registers a new table (generation 1). A conflict carries what holds the name: a live
     * registration, or a tombstone (then wait for the maintenance sweep, or {@link #supersede} it).
     */
    public RegistryWriteResult register(TableId id, TableSpec spec) {
        Checks.notNull(id, "id");
        Checks.notNull(spec, "spec");
        TableRegistration created = RegistrationCodec.encode(
                id, spec, 1, TableState.ACTIVE, null, null, RegistrationCodec.noUnknownFields());
        return write(id.key(), store.create(id.key(), created.storedValue()), Optional.of(created));
    }

    /**
     * Replaces a dropped table's tombstone with a new registration (generation + 1): the
     * tombstone's cleanup will not run, so the caller takes responsibility for what the dropped
     * registration pointed at (restoring it, or having cleaned it up). Compare-and-set on the exact
     * bytes of {@code tombstone}.
     *
     * @throws InvalidArgumentException if {@code tombstone} is not in state {@link TableState#DROPPED}
     *     (a live table, or a purge already under way: wait for the sweep to delete it); nothing written
     */
    public RegistryWriteResult supersede(TableRegistration tombstone, TableSpec spec) {
        Checks.notNull(spec, "spec");
        requireState(
                tombstone,
                TableState.DROPPED,
                "supersede",
                "a purging tombstone's cleanup has started: wait until the maintenance sweep deletes it, then register");
        return replace(
                tombstone,
                RegistrationCodec.encode(
                        tombstone.id(),
                        spec,
                        next(tombstone),
                        TableState.ACTIVE,
                        null,
                        null,
                        tombstone.unknownFields()));
    }

    /**
     * Changes a live table's spec (generation + 1), keeping every field this library does not
     * know. Compare-and-set on the exact bytes of {@code read}: a conflict carries the current
     * registration (another update, a drop) or empty (it was deleted).
     *
     * @throws InvalidArgumentException if {@code read} is a tombstone; nothing written
     */
    public RegistryWriteResult update(TableRegistration read, TableSpec spec) {
        Checks.notNull(spec, "spec");
        requireState(read, TableState.ACTIVE, "update", "a dropped table cannot change: supersede its tombstone");
        return replace(
                read,
                RegistrationCodec.encode(
                        read.id(), spec, next(read), TableState.ACTIVE, null, null, read.unknownFields()));
    }

    /**
     * Drops a live table: replaces its registration with a tombstone (generation + 1, stamped with
     * the clock) that keeps the location, so the maintenance sweep can clean up what it points at.
     * Compare-and-set on the exact bytes of {@code read}.
     *
     * @throws InvalidArgumentException if {@code read} is already a tombstone; nothing written
     */
    public RegistryWriteResult drop(TableRegistration read) {
        requireState(read, TableState.ACTIVE, "drop", "it is already dropped");
        return replace(
                read,
                RegistrationCodec.encode(
                        read.id(),
                        read.spec(),
                        next(read),
                        TableState.DROPPED,
                        clock.millis(),
                        null,
                        read.unknownFields()));
    }

    /**
     * Claims a tombstone's cleanup: state {@link TableState#PURGING}, generation + 1, stamped with
     * the clock. From then on it can no longer be superseded. The maintenance sweep calls this
     * under the table's lock right before it cleans up, also for a tombstone already purging (a
     * cleanup interrupted by a crash), so the destructive cleanup only ever runs right after a
     * write that the store accepted: through a fenced store, a deposed leader's claim is refused
     * and it cleans up nothing. Compare-and-set on the exact bytes of {@code tombstone}.
     *
     * @throws InvalidArgumentException if {@code tombstone} is not a tombstone (a live table); nothing written
     */
    public RegistryWriteResult startPurge(TableRegistration tombstone) {
        Checks.notNull(tombstone, "tombstone");
        if (!tombstone.isDropped()) {
            requireState(tombstone, TableState.DROPPED, "start purging", "only a dropped table's tombstone is purged");
        }
        return replace(
                tombstone,
                RegistrationCodec.encode(
                        tombstone.id(),
                        tombstone.spec(),
                        next(tombstone),
                        TableState.PURGING,
                        tombstone.droppedAtMillis(),
                        clock.millis(),
                        tombstone.unknownFields()));
    }

    /**
     * Deletes a purging tombstone, once its cleanup finished: the name is free again.
     * Compare-and-set on the exact bytes of {@code purging}.
     *
     * @throws InvalidArgumentException if {@code purging} is not in state {@link TableState#PURGING}
     */
    public RegistryWriteResult deleteTombstone(TableRegistration purging) {
        requireState(
                purging,
                TableState.PURGING,
                "delete the tombstone of",
                "start its purge first, so that a crash after the cleanup leaves a tombstone to clean up again");
        MetaKey key = purging.id().key();
        return write(key, store.delete(key, purging.storedValue()), Optional.empty());
    }

    /**
     * Reads one store page of registrations and decodes it, keeping the store's continuation token.
     *
     * @param request made by {@link #allNamespaces} or {@link #inNamespace}, or resumed from one
     * @throws CorruptRegistrationException naming the first key on the page that does not decode
     *     (never skipped)
     * @throws io.lake.meta.InvalidPageTokenException if the token is not a token of this selection
     * @throws InvalidArgumentException if the request reads outside the {@value TableId#FAMILY} family
     */
    public TypedPage<TableRegistration> scanTablesPage(TypedPageRequest<TableRegistration> request) {
        Checks.notNull(request, "request");
        if (!request.prefix().family().equals(TableId.FAMILY)) {
            throw new InvalidArgumentException("page request " + request + " reads outside the family " + TableId.FAMILY
                    + ": make it with TableRegistry.allNamespaces or inNamespace");
        }
        Page page = store.page(request.pageRequest());
        List<TableRegistration> registrations = new ArrayList<>(page.entries().size());
        for (Entry entry : page.entries()) {
            registrations.add(RegistrationCodec.decode(entry.key(), entry.value()));
        }
        return new TypedPage<>(registrations, page.nextToken());
    }

    private RegistryWriteResult replace(TableRegistration read, TableRegistration next) {
        MetaKey key = read.id().key();
        return write(key, store.update(key, read.storedValue(), next.storedValue()), Optional.of(next));
    }

    private RegistryWriteResult write(MetaKey key, WriteResult result, Optional<TableRegistration> written) {
        if (result.isApplied()) {
            return RegistryWriteResult.applied(written);
        }
        // a backend that cannot report the current value on this conflict (a DynamoDB create) is asked
        Optional<MetaValue> current = result.isCurrentKnown() ? result.currentValue() : store.get(key);
        return RegistryWriteResult.conflict(current.map(value -> RegistrationCodec.decode(key, value)));
    }

    private static void requireState(TableRegistration registration, TableState required, String action, String hint) {
        Checks.notNull(registration, "registration");
        if (registration.state() != required) {
            throw new InvalidArgumentException("cannot " + action + " " + registration.id() + ": it is "
                    + registration.state().wireName() + " (generation " + registration.generation() + "), not "
                    + required.wireName() + "; " + hint + ". Nothing was written");
        }
    }

    private static long next(TableRegistration registration) {
        if (registration.generation() == Long.MAX_VALUE) {
            throw new InvalidArgumentException("the registration of " + registration.id()
                    + " reached the largest generation; nothing was written");
        }
        return registration.generation() + 1;
    }

    @Override
    public String toString() {
        return "TableRegistry[" + store + "]";
    }
}
