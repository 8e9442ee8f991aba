package io.lake.meta.recipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.PageRequest;
import io.lake.meta.arguments.NoIoMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one typed page of the recipes: how a request moves from page to page, and whose pages it reads. */
class TypedPageTest {

    @Test
    void next_followsTheToken_keepingTheSelectionAndLimit_andEndsWithTheLastPage() {
        TypedPageRequest<TableRegistration> first = TableRegistry.inNamespace("sales", 2);
        assertThat(first.prefix()).isEqualTo(KeyPrefix.of("tbl/sales/"));
        assertThat(first.token()).isEmpty();

        TypedPageRequest<TableRegistration> second =
                first.next(new TypedPage<>(List.of(), Optional.of("t1"))).orElseThrow();
        assertThat(second.prefix()).isEqualTo(first.prefix());
        assertThat(second.limit()).isEqualTo(2);
        assertThat(second.token()).contains("t1");
        assertThat(second).isEqualTo(first.after("t1")).hasSameHashCodeAs(first.after("t1"));

        assertThat(second.next(new TypedPage<>(List.of(), Optional.empty())))
                .as("after the last page")
                .isEmpty();
        assertThat(OperationJournal.allTenants(5).pageRequest())
                .isEqualTo(PageRequest.first(KeyPrefix.family("ops"), 5));
        assertThat(OperationJournal.inTenant("acme", 5).prefix()).isEqualTo(KeyPrefix.of("ops/acme/"));
    }

    @Test
    void badArguments_areRefusedWhenTheRequestIsMade() {
        assertThatThrownBy(() -> TableRegistry.allNamespaces(0)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TableRegistry.inNamespace("ns 1", 10)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> OperationJournal.inTenant("", 10)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TableRegistry.allNamespaces(10).after(""))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new TypedPage<>(Arrays.asList("a", null), Optional.empty()))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void aRecipe_refusesARequestOutsideItsFamily_beforeAnyIo() {
        NoIoMetaStore store = new NoIoMetaStore();
        TypedPageRequest<TableRegistration> ofOperations =
                TypedPageRequest.of(PageRequest.first(KeyPrefix.family("ops"), 10));
        assertThatThrownBy(() -> TableRegistry.over(store).scanTablesPage(ofOperations))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("outside the family tbl");

        TypedPageRequest<OperationRecord> ofTables =
                TypedPageRequest.of(PageRequest.first(KeyPrefix.family("tbl"), 10));
        LeaderElection election = LeaderElection.builder()
                .store(store)
                .leaseKey(MetaKey.of("lease/l"))
                .candidateId("a")
                .leaseDuration(Duration.ofSeconds(10))
                .build(); // building does no I/O
        OperationJournal journal =
                OperationJournal.builder().store(store).authority(election).build();
        assertThatThrownBy(() -> journal.page(ofTables))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("outside the family ops");
        assertThatThrownBy(() -> journal.collectGarbage(ofTables)).isInstanceOf(InvalidArgumentException.class);
    }
}
