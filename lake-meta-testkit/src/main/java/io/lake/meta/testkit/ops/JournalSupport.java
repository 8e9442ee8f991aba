package io.lake.meta.testkit.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.CollectionPage;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.testkit.registry.RecipeSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Part of {@link OperationJournalSuite}: what its groups share. */
abstract class JournalSupport extends RecipeSupport {

    protected static final Duration RETENTION = Duration.ofHours(1);
    protected static final String TENANT = "acme";
    protected static final String DIGEST = "sha256:0b1c";

    static final ObjectMapper JSON = new ObjectMapper();

    /** A journal writing through a fenced view of {@code via} for {@code leader}. */
    protected OperationJournal journal(MetaStore via, LeaderElection leader) {
        return OperationJournal.builder()
                .store(fenced(via, leader))
                .authority(leader)
                .clock(wall)
                .retention(RETENTION)
                .build();
    }

    static MetaKey keyOf(String operationId) {
        return MetaKey.of("ops/" + TENANT + "/" + operationId);
    }

    /** Every record of {@code first}'s selection, looping on the token. */
    protected static List<OperationRecord> allRecords(
            OperationJournal journal, TypedPageRequest<OperationRecord> first) {
        List<OperationRecord> all = new ArrayList<>();
        Optional<TypedPageRequest<OperationRecord>> request = Optional.of(first);
        while (request.isPresent()) {
            TypedPage<OperationRecord> page = journal.page(request.get());
            all.addAll(page.items());
            request = page.nextToken().map(request.get()::after);
        }
        return all;
    }

    /** Collects every page of {@code first}'s selection, looping on the token; how many records were deleted. */
    protected static int collectAll(OperationJournal journal, TypedPageRequest<OperationRecord> first) {
        int deleted = 0;
        Optional<TypedPageRequest<OperationRecord>> request = Optional.of(first);
        while (request.isPresent()) {
            CollectionPage page = journal.collectGarbage(request.get());
            deleted += page.deleted();
            request = page.nextToken().map(request.get()::after);
        }
        return deleted;
    }
}
