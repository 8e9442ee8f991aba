package io.lake.meta.testkit.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.registry.CorruptRegistrationException;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.testkit.ContractGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Part of {@link TableRegistrySuite}: paging. */
@ContractGroup("paging")
abstract class RegistryPagingContract extends RegistryDroppingContract {

    @Test
    void fiveRegistrations_limitTwo_boundedPagesResumeToExactlyTheFive() {
        List<TableId> five = List.of(
                TableId.of("sales", "a"),
                TableId.of("sales", "b"),
                TableId.of("sales", "c"),
                TableId.of("sales", "d"),
                TableId.of("sales", "e"));
        five.forEach(id -> registered(id, TableSpec.of("s3://lake/" + id, "iceberg")));

        List<TableId> seen = new ArrayList<>();
        int pages = 0;
        Optional<TypedPageRequest<TableRegistration>> request = Optional.of(TableRegistry.inNamespace("sales", 2));
        while (request.isPresent()) {
            TypedPage<TableRegistration> page = registry().scanTablesPage(request.get());
            assertThat(page.items().size())
                    .as("page %d is bounded by its limit", pages)
                    .isLessThanOrEqualTo(2);
            page.items().forEach(r -> seen.add(r.id()));
            request = request.get().next(page);
            pages++;
            assertThat(pages).as("the pages end").isLessThan(100);
        }

        assertThat(seen).containsExactlyInAnyOrderElementsOf(five);
        assertThat(pages).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aPageKeepsTheStoresToken_soAFreshRegistryResumesFromTheTokenAlone() {
        List<TableId> three = List.of(TableId.of("sales", "a"), TableId.of("sales", "b"), TableId.of("sales", "c"));
        three.forEach(id -> registered(id, ORDERS_SPEC));

        List<TableId> seen = new ArrayList<>();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            TypedPageRequest<TableRegistration> request = TableRegistry.inNamespace("sales", 1);
            TypedPage<TableRegistration> page = TableRegistry.over(
                            store) // a new registry each time: the token is all it is given
                    .scanTablesPage(token.isPresent() ? request.after(token.get()) : request);
            page.items().forEach(r -> seen.add(r.id()));
            token = page.nextToken();
            assertThat(++pages).isLessThan(100);
        } while (token.isPresent());

        assertThat(seen).containsExactlyInAnyOrderElementsOf(three);
    }

    @Test
    void namespaces_areIsolated_ns1NeverListsNs10() {
        registered(TableId.of("ns1", "t"), ORDERS_SPEC);
        registered(TableId.of("ns10", "t"), ORDERS_SPEC);
        registered(TableId.of("ns1", "u"), ORDERS_SPEC);

        assertThat(allPages(TableRegistry.inNamespace("ns1", 10)))
                .extracting(TableRegistration::id)
                .containsExactlyInAnyOrder(TableId.of("ns1", "t"), TableId.of("ns1", "u"));
        assertThat(allPages(TableRegistry.inNamespace("ns10", 10)))
                .extracting(TableRegistration::id)
                .containsExactly(TableId.of("ns10", "t"));
        assertThat(allPages(TableRegistry.allNamespaces(10))).hasSize(3);
    }

    @Test
    void aTokenOfAnotherNamespace_isRefused() {
        registered(TableId.of("ns1", "a"), ORDERS_SPEC);
        registered(TableId.of("ns1", "b"), ORDERS_SPEC);
        String token = firstToken(TableRegistry.inNamespace("ns1", 1));

        assertThatThrownBy(() -> registry()
                        .scanTablesPage(TableRegistry.inNamespace("ns10", 1).after(token)))
                .isInstanceOf(InvalidPageTokenException.class);
    }

    @Test
    void aRecordThatDoesNotDecode_failsThePageAndTheRead_namingTheKey_neverSkipped() {
        registered(TableId.of("sales", "a"), ORDERS_SPEC);
        MetaKey broken = MetaKey.of("tbl/sales/b");
        store.create(broken, MetaValue.utf8("{\"v\":1,\"state\":\"active\",\"location\":\"s3://b\"}"));

        assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("sales", 10)))
                .isInstanceOf(CorruptRegistrationException.class)
                .hasMessageContaining("tbl/sales/b")
                .hasMessageContaining("generation")
                .satisfies(e ->
                        assertThat(((CorruptRegistrationException) e).key()).isEqualTo(broken));
        assertThatThrownBy(() -> registry().get(TableId.of("sales", "b")))
                .isInstanceOf(CorruptRegistrationException.class)
                .hasMessageContaining("tbl/sales/b");
    }

    @Test
    void aNewerRecordVersion_orNotJson_orAKeyOutsideTheNamingRules_isATypedErrorNamingTheKey() {
        store.create(
                MetaKey.of("tbl/a/newer"),
                MetaValue.utf8("{\"v\":2,\"state\":\"active\",\"generation\":1,"
                        + "\"location\":\"s3://x\",\"format\":\"iceberg\"}"));
        store.create(MetaKey.of("tbl/b/text"), MetaValue.utf8("not json"));
        store.create(
                MetaKey.of("tbl/c/deep/key"), registered(ORDERS, ORDERS_SPEC).storedValue());

        assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("a", 10)))
                .isInstanceOf(CorruptRegistrationException.class)
                .hasMessageContaining("tbl/a/newer")
                .hasMessageContaining("record version 2");
        assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("b", 10)))
                .isInstanceOf(CorruptRegistrationException.class)
                .hasMessageContaining("tbl/b/text");
        assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("c", 10)))
                .isInstanceOf(CorruptRegistrationException.class)
                .hasMessageContaining("tbl/c/deep/key");
    }
}
