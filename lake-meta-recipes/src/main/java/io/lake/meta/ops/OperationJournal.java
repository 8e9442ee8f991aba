package io.lake.meta.ops;

import io.lake.meta.Entry;
import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.internal.Checks;
import io.lake.meta.lease.CorruptLeaseRecordException;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The idempotent operation journal: one record per operation id, so a retried request is answered
 * from the record instead of being run twice.
 *
 * <ul>
 *   <li>{@link #begin} reads the record first: a replay (same payload digest) returns the recorded
 *       state and writes nothing, even on a node that does not lead; a different digest raises
 *       {@link IdempotencyConflictException} and writes nothing. An absent record is created in
 *       progress, naming this leader and its epoch; losing that create to another caller returns
 *       that caller's record.</li>
 *   <li>{@link #complete} and {@link #abandon} end an in-progress record begun (or recovered) in the
 *       current epoch, each a compare-and-set on its exact bytes.</li>
 *   <li>{@link #recover} lets a later leader take over an in-progress record of an earlier epoch:
 *       a compare-and-set that writes its own holder and epoch, so the earlier leader's stale end
 *       conflicts (and, through a fenced store, is refused before it reaches the record).</li>
 *   <li>{@link #collectGarbage} deletes terminal records older than the retention, one bounded page per call.</li>
 * </ul>
 *
 * <p>Pass a {@link io.lake.meta.fenced.FencedMetaStore} over the same authority as the store: then
 * every write is fenced by the lease, and a deposed leader records, ends and collects nothing. The
 * epoch of new and recovered records is the authority's current guard's, and each write goes
 * through the fenced store {@linkplain FencedMetaStore#pinnedTo(long) pinned to that epoch} (to
 * the record's epoch for complete and abandon): if the node's term ended meanwhile, the write is
 * refused even though the node leads again in a later term. Thread-safe; the store and
 * the authority are the caller's.
 *
 * @since 0.1.0
 */
public final class OperationJournal {

    /** Default retention of terminal records. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

    /** The longest retention: a century is as good as forever. */
    public static final Duration MAX_RETENTION = Duration.ofDays(36_500);

    /** The longest payload digest. */
    public static final int MAX_DIGEST_LENGTH = 256;

    private static final Pattern DIGEST = Pattern.compile("[A-Za-z0-9][A-Za-z0-9:_.+/=-]*");

    /** A begin retries at most this often when the record vanished between its create and its read. */
    private static final int MAX_BEGIN_ROUNDS = 3;

    /** A write is sent at most this often while its answers are lost. */
    private static final int MAX_LOST_ANSWERS = 3;

    private final MetaStore store;
    private final LeaseAuthority authority;
    private final Clock clock;
    private final Duration retention;

    private OperationJournal(Builder b) {
        this.store = Objects.requireNonNull(b.store); // build() checked both
        this.authority = Objects.requireNonNull(b.authority);
        this.clock = b.clock;
        this.retention = b.retention;
    }

    /** A builder: the store and the lease authority are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The first page of every tenant's operation records.
     *
     * @throws InvalidArgumentException if {@code limit} is outside 1..10 000
     */
    public static TypedPageRequest<OperationRecord> allTenants(int limit) {
        return TypedPageRequest.of(PageRequest.first(OperationId.allTenants(), limit));
    }

    /**
     * The first page of {@code tenant}'s operation records (never those of another tenant that
     * starts with the same characters).
     *
     * @throws InvalidArgumentException if the tenant is invalid or {@code limit} is outside 1..10 000
     */
    public static TypedPageRequest<OperationRecord> inTenant(String tenant, int limit) {
        return TypedPageRequest.of(PageRequest.first(OperationId.prefixOf(tenant), limit));
    }

    /**
     * Begins an operation, or returns its recorded state.
     *
     * @param payloadDigest the digest of the request's payload (such as {@code sha256:<hex>}): 1 to
     *     {@value #MAX_DIGEST_LENGTH} characters from {@code [A-Za-z0-9:_.+/=-]}
     * @throws IdempotencyConflictException if the operation was recorded with another digest; nothing written
     * @throws FencedException if the operation is not recorded and this node does not lead; nothing written
     * @throws InvalidArgumentException if the tenant, operation id or digest is invalid; nothing read or written
     */
    public BeginResult begin(String tenant, String operationId, String payloadDigest) {
        OperationId id = OperationId.of(tenant, operationId);
        String digest = requireDigest(payloadDigest);
        MetaKey key = id.key();
        for (int round = 0; round < MAX_BEGIN_ROUNDS; round++) {
            Optional<OperationRecord> existing = read(key);
            if (existing.isPresent()) {
                return replay(existing.get(), digest);
            }
            LeaseGuard guard = requireGuard("begin operation " + id);
            OperationRecord started = OperationRecordCodec.encode(
                    id,
                    digest,
                    OperationState.IN_PROGRESS,
                    ownerOf(guard),
                    1,
                    clock.millis(),
                    null,
                    null,
                    null,
                    OperationRecordCodec.noUnknownFields());
            Sent created = send(writesIn(guard.epoch()), key, Optional.empty(), started.storedValue());
            if (created.applied()) {
                return BeginResult.started(started);
            }
            Optional<OperationRecord> winner = created.current().map(value -> OperationRecordCodec.decode(key, value));
            if (winner.isPresent()) {
                return replay(winner.get(), digest);
            }
            // created and collected between our create and our read: begin again
        }
        throw new StoreUnavailableException("operation " + id + " was created and removed " + MAX_BEGIN_ROUNDS
                + " times while it was begun; nothing was written by this call: retry");
    }

    /** Reads an operation's record. */
    public Optional<OperationRecord> get(String tenant, String operationId) {
        return read(OperationId.of(tenant, operationId).key());
    }

    /**
     * Completes an in-progress operation with its outcome: compare-and-set on the exact bytes of
     * {@code inProgress}. A conflict carries the current record (another caller ended it, a later
     * leader recovered it).
     *
     * @param outcome the outcome to return to every replay (such as a JSON answer)
     * @throws InvalidArgumentException if {@code inProgress} is not in progress, or was begun in another
     *     epoch than this leader's (recover it first); nothing written
     * @throws FencedException if this node does not lead (through a fenced store: or lost its lease); nothing written
     */
    public JournalWriteResult complete(OperationRecord inProgress, String outcome) {
        Checks.notNull(outcome, "outcome");
        requireOwnInProgress(inProgress, "complete");
        return replace(
                inProgress,
                OperationRecordCodec.encode(
                        inProgress.id(),
                        inProgress.payloadDigest(),
                        OperationState.COMPLETED,
                        inProgress.owner(),
                        inProgress.attempt(),
                        inProgress.startedAtMillis(),
                        clock.millis(),
                        outcome,
                        null,
                        inProgress.unknownFields()));
    }

    /**
     * Abandons an in-progress operation (it took no effect), with a reason every replay returns:
     * compare-and-set on the exact bytes of {@code inProgress}.
     *
     * @throws InvalidArgumentException as {@link #complete}
     * @throws FencedException as {@link #complete}
     */
    public JournalWriteResult abandon(OperationRecord inProgress, String reason) {
        Checks.notNull(reason, "reason");
        requireOwnInProgress(inProgress, "abandon");
        return replace(
                inProgress,
                OperationRecordCodec.encode(
                        inProgress.id(),
                        inProgress.payloadDigest(),
                        OperationState.ABANDONED,
                        inProgress.owner(),
                        inProgress.attempt(),
                        inProgress.startedAtMillis(),
                        clock.millis(),
                        null,
                        reason,
                        inProgress.unknownFields()));
    }

    /**
     * Takes over an operation an earlier leader left in progress: compare-and-set on its exact
     * bytes, writing this leader's holder and epoch and the next attempt number. Then complete or
     * abandon the returned record. A conflict carries the current record (ended meanwhile, or
     * recovered by someone else).
     *
     * @throws InvalidArgumentException if {@code inProgress} is not in progress, or its epoch is not
     *     lower than this leader's (it is this term's own operation); nothing written
     * @throws FencedException if this node does not lead; nothing written
     */
    public JournalWriteResult recover(OperationRecord inProgress) {
        Checks.notNull(inProgress, "record");
        LeaseGuard guard = requireGuard("recover operation " + inProgress.id());
        requireInProgress(inProgress, "recover");
        if (inProgress.owner().epoch() >= guard.epoch()) {
            throw new InvalidArgumentException(
                    "cannot recover operation " + inProgress.id() + ": it was begun in epoch "
                            + inProgress.owner().epoch() + " and this leader leads epoch " + guard.epoch()
                            + "; only a later leader recovers an operation. Nothing was written");
        }
        if (inProgress.attempt() == Long.MAX_VALUE) {
            throw new InvalidArgumentException("operation " + inProgress.id() + " reached the largest attempt number;"
                    + " abandon it instead. Nothing was written");
        }
        return replace(
                inProgress,
                OperationRecordCodec.encode(
                        inProgress.id(),
                        inProgress.payloadDigest(),
                        OperationState.IN_PROGRESS,
                        ownerOf(guard),
                        inProgress.attempt() + 1,
                        inProgress.startedAtMillis(),
                        null,
                        null,
                        null,
                        inProgress.unknownFields()));
    }

    /**
     * Reads one store page of records, decoded, keeping the store's continuation token.
     *
     * @param request made by {@link #allTenants} or {@link #inTenant}, or resumed from one
     * @throws CorruptOperationRecordException naming the first key on the page that does not decode
     * @throws InvalidArgumentException if the request reads outside the {@value OperationId#FAMILY} family
     */
    public TypedPage<OperationRecord> page(TypedPageRequest<OperationRecord> request) {
        Checks.notNull(request, "request");
        if (!request.prefix().family().equals(OperationId.FAMILY)) {
            throw new InvalidArgumentException("page request " + request + " reads outside the family "
                    + OperationId.FAMILY + ": make it with OperationJournal.allTenants or inTenant");
        }
        Page page = store.page(request.pageRequest());
        List<OperationRecord> records = new ArrayList<>(page.entries().size());
        for (Entry entry : page.entries()) {
            records.add(OperationRecordCodec.decode(entry.key(), entry.value()));
        }
        return new TypedPage<>(records, page.nextToken());
    }

    /**
     * Reads one store page and deletes its terminal records that ended at least the retention ago,
     * each with a compare-and-set on the bytes read (a record that changed meanwhile is left).
     * In-progress records are never collected. Call again with the returned token until it is empty.
     *
     * @throws CorruptOperationRecordException naming the first key on the page that does not decode; nothing deleted
     * @throws FencedException through a fenced store, when this node does not lead
     */
    public CollectionPage collectGarbage(TypedPageRequest<OperationRecord> request) {
        TypedPage<OperationRecord> page = page(request);
        long now = clock.millis();
        int deleted = 0;
        for (OperationRecord record : page.items()) {
            if (isExpired(record, now)
                    && store.delete(record.id().key(), record.storedValue()).isApplied()) {
                deleted++;
            }
        }
        return new CollectionPage(page.items().size(), deleted, page.nextToken());
    }

    /** How long terminal records are kept. */
    public Duration retention() {
        return retention;
    }

    private boolean isExpired(OperationRecord record, long nowMillis) {
        if (!record.state().isTerminal()) {
            return false;
        }
        long ended = Objects.requireNonNull(record.endedAtMillis()); // a terminal record has one
        long age;
        try {
            age = Math.subtractExact(nowMillis, ended);
        } catch (ArithmeticException e) {
            age = ended < nowMillis ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return age >= retention.toMillis();
    }

    private BeginResult replay(OperationRecord recorded, String digest) {
        if (!recorded.payloadDigest().equals(digest)) {
            throw new IdempotencyConflictException(recorded, digest);
        }
        return BeginResult.recorded(recorded);
    }

    /**
     * Where a write decided in term {@code epoch} goes: a fenced store's view pinned to that term,
     * so a record stamped with one epoch is never written under another term of the same node.
     */
    private MetaStore writesIn(long epoch) {
        return store instanceof FencedMetaStore fenced ? fenced.pinnedTo(epoch) : store;
    }

    private JournalWriteResult replace(OperationRecord read, OperationRecord next) {
        MetaKey key = read.id().key();
        Sent sent = send(writesIn(next.owner().epoch()), key, Optional.of(read.storedValue()), next.storedValue());
        return sent.applied()
                ? JournalWriteResult.applied(next)
                : JournalWriteResult.conflict(sent.current().map(value -> OperationRecordCodec.decode(key, value)));
    }

    /** A write's resolved answer: applied, or not, with what the key holds instead (empty: absent). */
    private record Sent(boolean applied, Optional<MetaValue> current) {
        static final Sent APPLIED = new Sent(true, Optional.empty());
    }

    /**
     * Writes {@code mine} over {@code expected} (a create when empty) and resolves a lost answer
     * as the counter and the lease do: the record's bytes are unique per write (its attempt id),
     * so a re-read that finds {@code mine} proves the write applied; one that still finds
     * {@code expected} proves it has not, and the same bytes are sent again (if the lost one lands
     * first, the resend meets it as its own); anything else is another writer's, the ordinary
     * conflict.
     *
     * @throws OutcomeUnknownException if every answer was lost, or the re-read failed; the write may have applied
     */
    private Sent send(MetaStore via, MetaKey key, Optional<MetaValue> expected, MetaValue mine) {
        OutcomeUnknownException lost = null;
        for (int sent = 0; sent < MAX_LOST_ANSWERS; sent++) {
            WriteResult result;
            try {
                result = expected.isPresent() ? via.update(key, expected.get(), mine) : via.create(key, mine);
            } catch (OutcomeUnknownException e) {
                lost = e;
                Optional<MetaValue> now = reread(key, e);
                if (now.isPresent() && now.get().equals(mine)) {
                    return Sent.APPLIED;
                }
                if (!now.equals(expected)) {
                    return new Sent(false, now);
                }
                continue;
            } catch (FencedException e) {
                if (lost == null) {
                    throw e;
                }
                // the resend was refused, but the lost write may have applied before the term ended
                Optional<MetaValue> now = reread(key, lost);
                if (now.isPresent() && now.get().equals(mine)) {
                    return Sent.APPLIED;
                }
                lost.addSuppressed(e);
                throw lost;
            }
            if (result.isApplied()) {
                return Sent.APPLIED;
            }
            // a backend that cannot report the current value on this conflict (a DynamoDB create) is asked
            Optional<MetaValue> current = result.isCurrentKnown() ? result.currentValue() : store.get(key);
            if (current.isPresent() && current.get().equals(mine)) {
                return Sent.APPLIED; // the lost write landed before this resend
            }
            return new Sent(false, current);
        }
        throw lost;
    }

    private Optional<MetaValue> reread(MetaKey key, OutcomeUnknownException lost) {
        try {
            return store.get(key);
        } catch (MetaStoreException readFailure) {
            lost.addSuppressed(readFailure);
            throw lost;
        }
    }

    private Optional<OperationRecord> read(MetaKey key) {
        return store.get(key).map(value -> OperationRecordCodec.decode(key, value));
    }

    private void requireOwnInProgress(OperationRecord record, String action) {
        Checks.notNull(record, "record");
        requireInProgress(record, action);
        LeaseGuard guard = requireGuard(action + " operation " + record.id());
        if (record.owner().epoch() != guard.epoch()) {
            throw new InvalidArgumentException(
                    "cannot " + action + " operation " + record.id() + ": it was begun in epoch "
                            + record.owner().epoch() + " and this leader leads epoch " + guard.epoch()
                            + (record.owner().epoch() < guard.epoch() ? "; recover it first" : "; re-read it")
                            + ". Nothing was written");
        }
    }

    private static void requireInProgress(OperationRecord record, String action) {
        if (record.state() != OperationState.IN_PROGRESS) {
            throw new InvalidArgumentException("cannot " + action + " operation " + record.id() + ": it is "
                    + record.state().wireName() + ", not in progress. Nothing was written");
        }
    }

    private LeaseGuard requireGuard(String what) {
        return authority
                .currentGuard()
                .orElseThrow(() -> new FencedException(what + " refused: this node holds no" + " valid lease on '"
                        + authority.leaseKey() + "'; nothing was written"));
    }

    /** The holder named by the guard's own lease record, and the guard's epoch. */
    private OperationOwner ownerOf(LeaseGuard guard) {
        String holder;
        try {
            holder = LeaseRecord.decode(guard.leaseKey(), guard.leaseBytes())
                    .holder()
                    .orElse("unknown");
        } catch (CorruptLeaseRecordException e) {
            holder = "unknown";
        }
        return new OperationOwner(holder, guard.epoch());
    }

    private static String requireDigest(String digest) {
        Checks.notNull(digest, "payload digest");
        if (digest.isEmpty()
                || digest.length() > MAX_DIGEST_LENGTH
                || !DIGEST.matcher(digest).matches()) {
            throw new InvalidArgumentException("payload digest '" + digest + "' is invalid: use 1 to "
                    + MAX_DIGEST_LENGTH + " characters from [A-Za-z0-9:_.+/=-], such as sha256:<hex>");
        }
        return digest;
    }

    @Override
    public String toString() {
        return "OperationJournal[lease=" + authority.leaseKey() + ", retention=" + retention + ", store=" + store + "]";
    }

    /**
     * Builds a journal; building does no I/O. Required: store and authority.
     *
     * @since 0.1.0
     */
    public static final class Builder {

        private @Nullable MetaStore store;
        private @Nullable LeaseAuthority authority;
        private Clock clock = Clock.systemUTC();
        private Duration retention = DEFAULT_RETENTION;

        private Builder() {}

        /** The store the records live in: a {@link io.lake.meta.fenced.FencedMetaStore} over {@link #authority}'s lease. */
        public Builder store(MetaStore store) {
            this.store = Checks.notNull(store, "store");
            return this;
        }

        /** Where the epoch (and holder) of new and recovered records come from: usually the {@code LeaderElection}. */
        public Builder authority(LeaseAuthority authority) {
            this.authority = Checks.notNull(authority, "authority");
            return this;
        }

        /** The wall clock of start and end times and of the retention; UTC unless set. */
        public Builder clock(Clock clock) {
            this.clock = Checks.notNull(clock, "clock");
            return this;
        }

        /**
         * How long terminal records are kept before {@link #collectGarbage} may delete them;
         * {@link #DEFAULT_RETENTION} unless set. A replay after that begins the operation anew.
         *
         * @throws InvalidArgumentException if zero, negative or over {@link #MAX_RETENTION}
         */
        public Builder retention(Duration retention) {
            Checks.notNull(retention, "retention");
            if (retention.isZero() || retention.isNegative() || retention.compareTo(MAX_RETENTION) > 0) {
                throw new InvalidArgumentException("retention " + retention + " is out of range: use more than zero"
                        + " and at most " + MAX_RETENTION.toDays() + " days");
            }
            this.retention = retention;
            return this;
        }

        /**
         * Builds the journal.
         *
         * @throws IllegalStateException if the store or the authority is missing, or the store is a
         *     fenced store over another lease than the authority's
         */
        public OperationJournal build() {
            if (store == null || authority == null) {
                throw new IllegalStateException("an operation journal needs store(...) and authority(...)");
            }
            if (store instanceof FencedMetaStore
                    && !((FencedMetaStore) store).leaseKey().equals(authority.leaseKey())) {
                throw new IllegalStateException("the journal's store is fenced by lease '"
                        + ((FencedMetaStore) store).leaseKey() + "' but its authority leads '" + authority.leaseKey()
                        + "': records would carry the epoch of a lease that does not fence them");
            }
            return new OperationJournal(this);
        }
    }
}
