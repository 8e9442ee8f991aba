package io.lake.meta.copy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.internal.Checks;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.TooManyFamiliesException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Copies the keys under chosen prefixes from one store to another of any backend, then verifies
 * both ways that the two hold the same keys and values.
 *
 * <pre>{@code
 * CopyReport report = StoreCopy.from(rocks).to(postgres)
 *         .prefix(KeyPrefix.family("tbl")).prefix(KeyPrefix.family("lease"))
 *         .build()
 *         .run();
 * if (!report.verification().equal()) { ... }
 * }</pre>
 *
 * <ul>
 *   <li><b>Which keys.</b> Every key, when no prefix is named: the source must then list its
 *       families ({@link KeyFamilies}: RocksDB, PostgreSQL, DynamoDB and the in-memory store do), and the
 *       plan holds one prefix per family, {@code KeyPrefix.family(name)}; a source that cannot list
 *       them is refused with {@link CopyRefusedException} when the copy is built. The verification
 *       of such a copy also compares every family the target lists, so a family only the target
 *       holds differs. Or only the prefixes named: keys of a family not named are neither copied
 *       nor verified. Overlapping prefixes and the reserved family {@value ResumeRecord#FAMILY}
 *       are refused.</li>
 *   <li><b>Bounded.</b> The source is read one page of {@code pageSize} entries at a time; each
 *       page is written in transactions of at most the target's transaction limits.</li>
 *   <li><b>Resumable, nothing copied twice.</b> The target holds a resume record
 *       ({@code lake-meta-copy/resume}) that each transaction moves forward together with the keys it
 *       creates: a copy killed at any point and run again with the same prefixes goes on after the last
 *       keys written. The record is never copied, counted or verified, and is deleted when the copy
 *       is done.</li>
 *   <li><b>Nothing overwritten.</b> Keys are created with create-if-absent. A target holding keys
 *       under the prefixes is refused with {@link CopyRefusedException} unless {@code intoNonEmpty};
 *       then a key the target already holds with the same bytes is counted as equal, one with
 *       other bytes is left as it is and reported as differing.</li>
 *   <li><b>Writers must be stopped.</b> A copy is exact only when nothing writes the source
 *       meanwhile. The verification that ends every copy detects a source that changed: a key changed
 *       or deleted after it was copied, or added behind the copy, differs; a change during the
 *       verification changes the source's second digest.</li>
 * </ul>
 *
 * <p>A {@code StoreCopy} does not close the stores. One copy into a target at a time: a second one
 * finds the resume record moved under it and stops with {@link CopyRefusedException}.
 *
 * @since 0.1.0
 */
public final class StoreCopy {

    /** The default number of source entries read per page. */
    public static final int DEFAULT_PAGE_SIZE = 500;

    /** Bytes of a transaction left for the resume record and per-item overhead. */
    private static final int RECORD_ALLOWANCE = 64 * 1024;

    private final MetaStore source;
    private final MetaStore target;
    private final List<KeyPrefix> prefixes;
    private final int pageSize;
    private final boolean intoNonEmpty;
    private final CopyListener listener;
    /** No prefix was named: the plan is the source's families, and verification looks at the target's too. */
    private final boolean everyFamily;

    private StoreCopy(Builder builder, List<KeyPrefix> plan) {
        this.source = builder.source;
        this.target = Objects.requireNonNull(builder.target); // build() checked it
        this.everyFamily = builder.prefixes.isEmpty();
        this.prefixes = plan.stream()
                .sorted(Comparator.comparing(KeyPrefix::utf8, Arrays::compareUnsigned))
                .toList();
        this.pageSize = builder.pageSize;
        this.intoNonEmpty = builder.intoNonEmpty;
        this.listener = builder.listener;
    }

    /** Starts a copy from {@code source}. */
    public static Builder from(MetaStore source) {
        return new Builder(source);
    }

    /** The prefixes, in the order they are copied and digested. */
    public List<KeyPrefix> prefixes() {
        return prefixes;
    }

    /**
     * Copies (or resumes an earlier run's copy), verifies, then deletes the resume record: a copy
     * killed during its verification is finished by running it again.
     *
     * @throws CopyRefusedException before writing anything, when the target is not empty and
     *     {@code intoNonEmpty} was not given, or holds the resume record of a copy of other prefixes
     */
    public CopyReport run() {
        Optional<MetaValue> stored = target.get(ResumeRecord.KEY);
        boolean resumed = stored.isPresent();
        ResumeRecord record;
        MetaValue recordValue;
        if (resumed) {
            record = ResumeRecord.decode(stored.get());
            if (!record.prefixes().equals(prefixes)) {
                throw new CopyRefusedException("the target holds the resume record of an unfinished copy of "
                        + record.prefixes() + ", not of " + prefixes + ": run that copy again to finish it, or delete "
                        + ResumeRecord.KEY + " from the target to give it up");
            }
            recordValue = stored.get();
        } else {
            if (!intoNonEmpty) {
                refuseNonEmptyTarget();
            }
            record = ResumeRecord.start(prefixes, pageSize);
            recordValue = record.encode();
            if (!target.create(ResumeRecord.KEY, recordValue).isApplied()) {
                throw concurrentCopy();
            }
        }
        while (!record.finished()) {
            ResumeRecord before = record;
            record = copyPage(record, recordValue);
            recordValue = record.encode();
            if (record.pages() > before.pages()) {
                listener.pageWritten(new CopyProgress(
                        before.prefix(), record.pages(), record.copied(), record.alreadyEqual(), record.differing()));
            }
        }
        Verification verification;
        try {
            verification = verify();
        } catch (TooManyFamiliesException tooMany) {
            // the record's own family can make a target of 1 000 families one too many to list:
            // verify without it (a run killed during this verification then finds no record)
            withSourceFamilies(List.of()); // unless the source is the one of too many: the record stays
            deleteRecord(recordValue);
            return new CopyReport(
                    prefixes,
                    record.pages(),
                    record.copied(),
                    record.alreadyEqual(),
                    record.differing(),
                    record.differingSample(),
                    resumed,
                    verify());
        }
        deleteRecord(recordValue);
        return new CopyReport(
                prefixes,
                record.pages(),
                record.copied(),
                record.alreadyEqual(),
                record.differing(),
                record.differingSample(),
                resumed,
                verification);
    }

    /** Deletes the finished copy's record; a lost answer is resolved by reading it, as a transaction's is. */
    private void deleteRecord(MetaValue recordValue) {
        while (true) {
            try {
                if (target.delete(ResumeRecord.KEY, recordValue).isApplied()) {
                    return;
                }
            } catch (OutcomeUnknownException unknown) {
                // read below: gone means deleted, the same bytes mean not deleted (again)
            }
            Optional<MetaValue> now = target.get(ResumeRecord.KEY);
            if (now.isEmpty()) {
                return; // the copy is finished, whoever deleted the record
            }
            if (!now.get().equals(recordValue)) {
                throw concurrentCopy();
            }
        }
    }

    /**
     * Compares source and target under the prefixes, both ways, writing nothing. A copy of every
     * family compares the plan and every family either store lists now (a family the source began
     * after the plan was made differs, it is not left out).
     */
    public Verification verify() {
        if (!everyFamily) {
            return ContentComparison.compare(source, target, prefixes, pageSize);
        }
        // the plan, and every family either side lists now: a family begun in the source after the
        // plan was made is missing in the target, not left out
        List<KeyPrefix> compared = withTargetFamilies(withSourceFamilies(prefixes));
        Verification verification = ContentComparison.compare(source, target, compared, pageSize);
        if (verification.sourceStable() && !compared.containsAll(withSourceFamilies(List.of()))) {
            // a family begun in the source during the comparison: the source changed under it
            return new Verification(
                    verification.sourceKeys(),
                    verification.targetKeys(),
                    verification.sourceDigest(),
                    verification.targetDigest(),
                    verification.missingInTarget(),
                    verification.extraInTarget(),
                    verification.valueDiffers(),
                    false,
                    verification.sample());
        }
        return verification;
    }

    private List<KeyPrefix> withSourceFamilies(List<KeyPrefix> plan) {
        return union(plan, KeyFamilies.of(source).map(KeyFamilies::families).orElse(List.of()));
    }

    private List<KeyPrefix> withTargetFamilies(List<KeyPrefix> plan) {
        return union(plan, KeyFamilies.of(target).map(KeyFamilies::families).orElse(List.of()));
    }

    private static List<KeyPrefix> union(List<KeyPrefix> plan, List<String> families) {
        TreeSet<KeyPrefix> all = new TreeSet<>(Comparator.comparing(KeyPrefix::utf8, Arrays::compareUnsigned));
        all.addAll(plan);
        all.addAll(familyPrefixes(families));
        return List.copyOf(all);
    }

    /** One prefix per family, the reserved family of the resume record left out. */
    private static List<KeyPrefix> familyPrefixes(List<String> families) {
        return families.stream()
                .filter(family -> !family.equals(ResumeRecord.FAMILY))
                .map(KeyPrefix::family)
                .toList();
    }

    private void refuseNonEmptyTarget() {
        for (KeyPrefix prefix : everyFamily ? withTargetFamilies(prefixes) : prefixes) {
            Entry first = new PrefixCursor(target, prefix, 1).next();
            if (first != null) {
                throw new CopyRefusedException("the target is not empty: it holds " + first.key() + " under " + prefix
                        + "; copy into an empty target, or allow a non-empty one (keys it holds are then left as they"
                        + " are, and those that differ are reported)");
            }
        }
    }

    /** Reads the page the record points at and writes its remaining entries; answers the record after it. */
    private ResumeRecord copyPage(ResumeRecord record, MetaValue recordValue) {
        KeyPrefix prefix = record.prefix();
        PageRequest request = record.token() == null
                ? PageRequest.first(prefix, record.pageSize())
                : PageRequest.after(prefix, record.token(), record.pageSize());
        Page page = source.page(request);
        List<Entry> remaining = page.entries()
                .subList(
                        Math.min(record.doneInPage(), page.entries().size()),
                        page.entries().size());
        String next = page.nextToken().orElse(null);
        if (remaining.isEmpty()) {
            // An empty page (DynamoDB may answer one) or a page written up to its end: move on.
            return write(record, recordValue, List.of(), true, next);
        }
        ResumeRecord current = record;
        MetaValue currentValue = recordValue;
        for (List<Entry> chunk : chunks(remaining)) {
            // the entries' keys are distinct: equal entries are the same one
            boolean last = chunk.get(chunk.size() - 1).equals(remaining.get(remaining.size() - 1));
            current = write(current, currentValue, chunk, last, next);
            currentValue = current.encode();
        }
        return current;
    }

    /** Splits entries into runs that fit one transaction of the target next to the resume record. */
    private List<List<Entry>> chunks(List<Entry> entries) {
        int maxKeys = target.maxTransactionKeys() - 1;
        long maxBytes = (long) target.maxTransactionBytes() - RECORD_ALLOWANCE;
        List<List<Entry>> chunks = new ArrayList<>();
        List<Entry> chunk = new ArrayList<>();
        long bytes = 0;
        for (Entry entry : entries) {
            long size = entry.key().utf8Length() + (long) entry.value().size();
            if (!chunk.isEmpty() && (chunk.size() == maxKeys || bytes + size > maxBytes)) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                bytes = 0;
            }
            chunk.add(entry);
            bytes += size;
        }
        chunks.add(chunk);
        return chunks;
    }

    /**
     * Creates the chunk's keys the target lacks and moves the resume record past the chunk, in one
     * transaction; keys that appear in the target meanwhile are looked at again.
     */
    private ResumeRecord write(
            ResumeRecord record, MetaValue recordValue, List<Entry> chunk, boolean endsPage, @Nullable String next) {
        while (true) {
            List<MetaKey> keys = chunk.stream().map(Entry::key).toList();
            Map<MetaKey, MetaValue> present = keys.isEmpty() ? Map.of() : target.getAll(keys);
            ResumeRecord.Tally tally = new ResumeRecord.Tally();
            Transaction.Builder transaction = Transaction.builder();
            long createdBytes = 0;
            for (Entry entry : chunk) {
                MetaValue held = present.get(entry.key());
                if (held == null) {
                    transaction.create(entry.key(), entry.value());
                    createdBytes +=
                            entry.key().utf8Length() + (long) entry.value().size();
                    tally.copied++;
                } else if (held.equals(entry.value())) {
                    tally.alreadyEqual++;
                } else {
                    tally.differing++;
                    tally.differingKeys.add(entry.key());
                }
            }
            ResumeRecord after =
                    endsPage ? record.advancedPastPage(next, tally) : record.advancedWithinPage(chunk.size(), tally);
            MetaValue afterValue = after.encode();
            if (chunk.size() > 1
                    && createdBytes + ResumeRecord.KEY.utf8Length() + recordValue.size() + afterValue.size()
                            > Math.min(target.maxTransactionBytes(), Limits.MAX_TRANSACTION_BYTES)) {
                // the record (its old and new bytes) outgrew the allowance chunks() left for it: halve
                int half = chunk.size() / 2;
                ResumeRecord first = write(record, recordValue, chunk.subList(0, half), false, next);
                return write(first, first.encode(), chunk.subList(half, chunk.size()), endsPage, next);
            }
            transaction.update(ResumeRecord.KEY, recordValue, afterValue);
            TransactionResult result;
            try {
                result = target.transact(transaction.build());
            } catch (OutcomeUnknownException unknown) {
                // The record says whether the transaction landed: it moves only with the keys.
                Optional<MetaValue> now = target.get(ResumeRecord.KEY);
                if (now.isPresent() && now.get().equals(afterValue)) {
                    return after;
                }
                if (now.isPresent() && now.get().equals(recordValue)) {
                    continue;
                }
                throw concurrentCopy();
            }
            if (result.isApplied()) {
                return after;
            }
            if (result.failureOf(ResumeRecord.KEY).isPresent()) {
                throw concurrentCopy();
            }
            if (!intoNonEmpty) {
                throw new CopyRefusedException(
                        "a writer created " + result.failures().get(0).key() + " in the target"
                                + " during the copy; stop every writer of the target and the source, then run the copy again");
            }
            // With intoNonEmpty, a key a writer created meanwhile is counted against what it now holds.
        }
    }

    private static CopyRefusedException concurrentCopy() {
        return new CopyRefusedException("the resume record " + ResumeRecord.KEY + " changed under this copy: another"
                + " copy into the same target is running; run one copy at a time");
    }

    /**
     * Chooses the target, the prefixes and how to copy.
     *
     * @since 0.1.0
     */
    public static final class Builder {
        private final MetaStore source;
        private @Nullable MetaStore target;
        private final List<KeyPrefix> prefixes = new ArrayList<>();
        private int pageSize = DEFAULT_PAGE_SIZE;
        private boolean intoNonEmpty;
        private CopyListener listener = progress -> {};
        /** The named prefixes' bytes in the resume record, bounded so that the record always fits a value. */
        private long planBytes;
        /** The source's families, once listed by {@link #everyFamily()}: the plan of a copy of every family. */
        private @Nullable List<KeyPrefix> familyPlan;

        private Builder(MetaStore source) {
            this.source = Checks.notNull(source, "source store");
        }

        /** The store to copy into; not the source itself. */
        public Builder to(MetaStore target) {
            if (Checks.notNull(target, "target store") == source) {
                throw new InvalidArgumentException("the target is the source store: copy into another store");
            }
            this.target = target;
            return this;
        }

        /**
         * A prefix to copy: {@code KeyPrefix.family("tbl")} copies the whole family. Name none to
         * copy every family the source lists.
         */
        public Builder prefix(KeyPrefix prefix) {
            if (Checks.notNull(prefix, "prefix").family().equals(ResumeRecord.FAMILY)) {
                throw new InvalidArgumentException("prefix " + prefix + " lies in the family " + ResumeRecord.FAMILY
                        + ", which a copy reserves for its resume record");
            }
            for (KeyPrefix other : prefixes) {
                if (other.toString().startsWith(prefix.toString())
                        || prefix.toString().startsWith(other.toString())) {
                    throw new InvalidArgumentException(
                            "prefixes " + other + " and " + prefix + " overlap: name the" + " shorter one only");
                }
            }
            long bytes = planBytes + ResumeRecord.planBytes(prefix);
            if (bytes > ResumeRecord.MAX_PLAN_BYTES) {
                throw new InvalidArgumentException("the " + (prefixes.size() + 1) + " prefixes named take " + bytes
                        + " bytes in the copy's resume record, more than " + ResumeRecord.MAX_PLAN_BYTES
                        + ": name fewer,"
                        + " shorter prefixes (a whole family each), or copy in several runs");
            }
            planBytes = bytes;
            prefixes.add(prefix);
            return this;
        }

        /**
         * Copies every family the source lists, as when no prefix is named, but lists them now (one
         * read of the source, the plan {@link #build()} then uses): call it before opening a target
         * that opening would create, so that a source refused creates nothing.
         *
         * @throws CopyRefusedException if the source cannot list its families ({@link KeyFamilies}),
         *     or holds keys in the family the copy reserves for its resume record
         * @throws io.lake.meta.spi.TooManyFamiliesException if the source holds more than
         *     {@value KeyFamilies#MAX_FAMILIES} families
         * @throws InvalidArgumentException if prefixes were named
         */
        public Builder everyFamily() {
            if (!prefixes.isEmpty()) {
                throw new InvalidArgumentException(
                        "prefixes " + prefixes + " were named: a copy of every family names" + " none");
            }
            familyPlan();
            return this;
        }

        /** One prefix per family of the source, listed once. */
        private List<KeyPrefix> familyPlan() {
            if (familyPlan == null) {
                List<String> families = sourceFamilies().families();
                if (families.contains(ResumeRecord.FAMILY)) {
                    // a copy of every key would leave them out and still call the stores equal
                    throw new CopyRefusedException("the source holds keys in the family " + ResumeRecord.FAMILY
                            + ", which a copy reserves for its resume record: the source is the target of a copy that"
                            + " has not finished (run that copy to its end first), or another program wrote there; name"
                            + " the prefixes to copy (--prefix) to copy the others");
                }
                familyPlan = familyPrefixes(families);
            }
            return familyPlan;
        }

        private KeyFamilies sourceFamilies() {
            return KeyFamilies.of(source)
                    .orElseThrow(() -> new CopyRefusedException("the source " + source
                            + " cannot list its key families, so a copy of every key cannot know them: name every family the"
                            + " service uses, such as prefix(KeyPrefix.family(\"tbl\")) (--prefix tbl/)"));
        }

        /** Every prefix of {@code prefixes}, as {@link #prefix} each. */
        public Builder prefixes(List<KeyPrefix> prefixes) {
            Checks.notNull(prefixes, "prefixes").forEach(this::prefix);
            return this;
        }

        /** Source entries read per page, 1 to {@value Limits#MAX_PAGE_LIMIT}; default {@value #DEFAULT_PAGE_SIZE}. */
        public Builder pageSize(int pageSize) {
            if (pageSize < 1 || pageSize > Limits.MAX_PAGE_LIMIT) {
                throw new InvalidArgumentException(
                        "page size " + pageSize + " is not between 1 and " + Limits.MAX_PAGE_LIMIT);
            }
            this.pageSize = pageSize;
            return this;
        }

        /** Allows a target that already holds keys under the prefixes; they are never overwritten. */
        public Builder intoNonEmpty(boolean intoNonEmpty) {
            this.intoNonEmpty = intoNonEmpty;
            return this;
        }

        /** Told after every page written (a progress bar); default: nothing. */
        public Builder listener(CopyListener listener) {
            this.listener = Checks.notNull(listener, "listener");
            return this;
        }

        /**
         * The copy. With prefixes named, nothing is read or written until {@link StoreCopy#run()} or
         * {@link StoreCopy#verify()}; with none, this lists the source's families (one read, unless
         * {@link #everyFamily()} did) to make the plan.
         *
         * @throws CopyRefusedException if no prefix was named and the source cannot list its
         *     families ({@link KeyFamilies}) or holds keys in the family reserved for the resume
         *     record; nothing was read from the target or written
         */
        public StoreCopy build() {
            if (target == null) {
                throw new InvalidArgumentException("no target store: call to(store)");
            }
            if (!prefixes.isEmpty()) {
                return new StoreCopy(this, prefixes);
            }
            return new StoreCopy(this, familyPlan());
        }
    }
}
