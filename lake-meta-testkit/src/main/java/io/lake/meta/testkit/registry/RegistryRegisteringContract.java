package io.lake.meta.testkit.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import org.junit.jupiter.api.Test;

/** Part of {@link TableRegistrySuite}: registering. */
@ContractGroup("registering")
abstract class RegistryRegisteringContract extends RegistrySupport {

    @Test
    void register_createsGenerationOne_andGetReadsItBack() {
        TableRegistration created = registered(ORDERS, ORDERS_SPEC);

        assertThat(created.generation()).isEqualTo(1);
        assertThat(created.state()).isEqualTo(TableState.ACTIVE);
        TableRegistration read = registry().get(ORDERS).orElseThrow();
        assertThat(read).isEqualTo(created);
        assertThat(read.spec()).isEqualTo(ORDERS_SPEC);
        assertThat(read.id()).isEqualTo(ORDERS);
        assertThat(store.get(MetaKey.of("tbl/sales/orders"))).contains(created.storedValue());
    }

    @Test
    void registerTwice_conflictsWithTheCurrentRegistration_andChangesNothing() {
        TableRegistration first = registered(ORDERS, ORDERS_SPEC);

        RegistryWriteResult second = registry().register(ORDERS, TableSpec.of("s3://elsewhere", "delta"));

        assertThat(second.isConflict()).isTrue();
        assertThat(second.registration()).contains(first);
        assertThat(registry().get(ORDERS)).contains(first);
    }

    @Test
    void registerOverATombstone_conflictsWithTheTombstone_untilItIsSuperseded() {
        TableRegistration tombstone =
                registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();
        TableSpec replacement = TableSpec.of("s3://lake/sales/orders-v2", "iceberg");

        RegistryWriteResult blocked = registry().register(ORDERS, replacement);
        assertThat(blocked.isConflict()).isTrue();
        assertThat(blocked.registration()).contains(tombstone);
        assertThat(blocked.registration().orElseThrow().isDropped()).isTrue();

        RegistryWriteResult superseded = registry().supersede(tombstone, replacement);
        assertThat(superseded.isApplied()).isTrue();
        TableRegistration now = registry().get(ORDERS).orElseThrow();
        assertThat(now.state()).isEqualTo(TableState.ACTIVE);
        assertThat(now.generation()).isEqualTo(3);
        assertThat(now.spec()).isEqualTo(replacement);
    }

    @Test
    void supersedingAPurgingTombstone_isRefused_andWritesNothing() {
        TableRegistration tombstone =
                registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();
        TableRegistration purging =
                registry().startPurge(tombstone).registration().orElseThrow();
        CountingMetaStore counting = new CountingMetaStore(store);

        assertThatThrownBy(() -> TableRegistry.over(counting, wall).supersede(purging, ORDERS_SPEC))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("purging")
                .hasMessageContaining("wait");
        assertThat(counting.plainWrites()).isEmpty();
        assertThat(registry().get(ORDERS)).contains(purging);
    }

    @Test
    void invalidNames_areRejectedWithTheirRule_beforeAnything() {
        assertThatThrownBy(() -> TableId.of("sales/eu", "orders"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("namespace 'sales/eu'");
        assertThatThrownBy(() -> TableId.of("sales", ""))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("table name");
        assertThatThrownBy(() -> TableId.of("-sales", "orders")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TableId.of("sales", "x".repeat(TableId.MAX_PART_LENGTH + 1)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TableRegistry.inNamespace("ns 1", 10)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TableRegistry.allNamespaces(0)).isInstanceOf(InvalidArgumentException.class);
        assertThat(contents("tbl")).isEmpty();
    }
}
