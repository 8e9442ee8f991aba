package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.CollectionPage;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.ManualTicker;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Part of {@link OperationJournalSuite}: garbage collection. */
@ContractGroup("garbage collection")
abstract class JournalGarbageCollectionContract extends JournalLostAnswersContract {

    @Test
    void terminalRecordsOlderThanTheRetention_areDeletedInBoundedPages_othersStay() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        journal.complete(journal.begin(TENANT, "old-1", DIGEST).record(), "done");
        journal.abandon(journal.begin(TENANT, "old-2", DIGEST).record(), "declined");
        journal.complete(journal.begin("other", "old-3", DIGEST).record(), "done");
        OperationRecord oldButRunning = journal.begin(TENANT, "running", DIGEST).record();
        wall.advance(RETENTION);
        OperationRecord recent = journal.complete(
                        journal.begin(TENANT, "recent", DIGEST).record(), "done")
                .record()
                .orElseThrow();

        int deleted = 0;
        int pages = 0;
        Optional<TypedPageRequest<OperationRecord>> request = Optional.of(OperationJournal.allTenants(2));
        while (request.isPresent()) {
            CollectionPage page = journal.collectGarbage(request.get());
            assertThat(page.scanned()).as("page %d is bounded", pages).isLessThanOrEqualTo(2);
            deleted += page.deleted();
            request = page.nextToken().map(request.get()::after);
            pages++;
            assertThat(pages).isLessThan(100);
        }

        assertThat(deleted).isEqualTo(3);
        Map<MetaKey, MetaValue> left = contents("ops");
        assertThat(left).containsOnlyKeys(keyOf("running"), keyOf("recent"));
        assertThat(left.get(keyOf("running"))).isEqualTo(oldButRunning.storedValue());
        assertThat(left.get(keyOf("recent"))).isEqualTo(recent.storedValue());
    }

    @Test
    void aReplayAfterItsRecordWasCollected_beginsTheOperationAnew() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        journal.complete(journal.begin(TENANT, "op-1", DIGEST).record(), "done");
        wall.advance(RETENTION);
        assertThat(collectAll(journal, OperationJournal.inTenant(TENANT, 10))).isEqualTo(1);

        assertThat(journal.begin(TENANT, "op-1", DIGEST).kind()).isEqualTo(BeginResult.Kind.STARTED);
    }
}
