package io.lake.meta.testkit.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lake.meta.MetaValue;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Part of {@link TableRegistrySuite}: what its groups share. */
abstract class RegistrySupport extends RecipeSupport {

    static final ObjectMapper JSON = new ObjectMapper();

    protected static final TableId ORDERS = TableId.of("sales", "orders");
    protected static final TableSpec ORDERS_SPEC =
            TableSpec.of("s3://lake/sales/orders", "iceberg").withProperty("owner", "sales-team");

    /** A registry on the raw store, stamping with the suite's wall clock. */
    protected TableRegistry registry() {
        return TableRegistry.over(store, wall);
    }

    /** Registers {@code id} with {@code spec}, failing the test unless it applies. */
    protected TableRegistration registered(TableId id, TableSpec spec) {
        RegistryWriteResult result = registry().register(id, spec);
        assertThat(result.isApplied()).as("register %s", id).isTrue();
        return result.registration().orElseThrow();
    }

    static JsonNode json(MetaValue value) throws Exception {
        return JSON.readTree(value.toByteArray());
    }

    /** Every registration of {@code first}'s selection, looping on the token. */
    protected List<TableRegistration> allPages(TypedPageRequest<TableRegistration> first) {
        List<TableRegistration> all = new ArrayList<>();
        Optional<TypedPageRequest<TableRegistration>> request = Optional.of(first);
        while (request.isPresent()) {
            TypedPage<TableRegistration> page = registry().scanTablesPage(request.get());
            all.addAll(page.items());
            request = request.get().next(page);
        }
        return all;
    }

    String firstToken(TypedPageRequest<TableRegistration> first) {
        Optional<TypedPageRequest<TableRegistration>> request = Optional.of(first);
        while (request.isPresent()) {
            TypedPage<TableRegistration> page = registry().scanTablesPage(request.get());
            if (!page.items().isEmpty()) {
                return page.nextToken().orElseThrow();
            }
            request = request.get().next(page);
        }
        throw new AssertionError("no page held a registration");
    }
}
