package io.lake.meta.reliability.crash;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.testkit.history.Call;
import io.lake.meta.testkit.history.Outcome;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A store that journals every call before sending it and every answer after (see {@link Journal}),
 * one journal per writer thread. A batch read is journaled as one get per key over the batch's
 * span; a first page as one snapshot read (RocksDB reads a page from one snapshot).
 */
final class JournalingStore extends ForwardingMetaStore {

    private final Journal journal;
    private final long idBase;
    private final WalFiles wal;
    private long next;

    /** @param wal when not null, the newest WAL file's size is journaled after every answer */
    JournalingStore(MetaStore delegate, Journal journal, long idBase, WalFiles wal) {
        super(delegate);
        this.journal = journal;
        this.idBase = idBase;
        this.wal = wal;
    }

    private <T> T journaled(Call call, Supplier<T> invocation, Function<T, Outcome> outcomeOf) {
        long id = idBase + next++;
        journal.attempt(id, call);
        T answer;
        try {
            answer = invocation.get();
        } catch (RuntimeException e) {
            journal.answer(id, Journal.errorOf(e));
            throw e;
        }
        journal.answer(id, outcomeOf.apply(answer));
        if (wal != null) {
            journal.line("W " + id + " " + wal.newestSize());
        }
        return answer;
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return journaled(new Call.Get(key), () -> super.get(key), Outcome.Read::new);
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        List<MetaKey> asked = List.copyOf(keys);
        long first = idBase + next;
        next += asked.size();
        for (int i = 0; i < asked.size(); i++) {
            journal.attempt(first + i, new Call.Get(asked.get(i)));
        }
        Map<MetaKey, MetaValue> found;
        try {
            found = super.getAll(asked);
        } catch (RuntimeException e) {
            for (int i = 0; i < asked.size(); i++) {
                journal.answer(first + i, Journal.errorOf(e));
            }
            throw e;
        }
        for (int i = 0; i < asked.size(); i++) {
            journal.answer(first + i, new Outcome.Read(Optional.ofNullable(found.get(asked.get(i)))));
        }
        return found;
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        return journaled(new Call.Write(mutation), () -> super.apply(mutation), Outcome.Written::new);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        return journaled(new Call.Guarded(mutation), () -> super.applyGuarded(mutation), Outcome.GuardedWritten::new);
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        return journaled(new Call.Transact(transaction), () -> super.transact(transaction), Outcome.Transacted::new);
    }

    @Override
    public Page page(PageRequest request) {
        if (request.token().isPresent()) {
            return super.page(request);
        }
        return journaled(
                new Call.FirstPage(request.prefix(), request.limit()),
                () -> super.page(request),
                p -> new Outcome.Paged(p.entries(), p.hasMore()));
    }
}
