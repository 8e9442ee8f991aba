package io.lake.meta.testkit.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import org.junit.jupiter.api.Test;

/** Part of {@link TableRegistrySuite}: updating. */
@ContractGroup("updating")
abstract class RegistryUpdatingContract extends RegistryRegisteringContract {

    @Test
    void update_bumpsTheGeneration_andAnswersWithTheNewRegistration() {
        TableRegistration v1 = registered(ORDERS, ORDERS_SPEC);

        RegistryWriteResult result = registry().update(v1, ORDERS_SPEC.withProperty("tier", "gold"));

        assertThat(result.isApplied()).isTrue();
        TableRegistration v2 = registry().get(ORDERS).orElseThrow();
        assertThat(result.registration()).contains(v2);
        assertThat(v2.generation()).isEqualTo(2);
        assertThat(v2.properties()).containsEntry("owner", "sales-team").containsEntry("tier", "gold");
    }

    @Test
    void concurrentUpdate_losesWithAConflictCarryingTheCurrentRegistration() {
        TableRegistration read = registered(ORDERS, ORDERS_SPEC);
        TableRegistration winner = registry()
                .update(read, ORDERS_SPEC.withProperty("by", "a"))
                .registration()
                .orElseThrow();

        RegistryWriteResult loser = registry().update(read, ORDERS_SPEC.withProperty("by", "b"));

        assertThat(loser.isConflict()).isTrue();
        assertThat(loser.registration()).contains(winner);
        assertThat(loser.registration().orElseThrow().generation()).isEqualTo(2);
        assertThat(registry().get(ORDERS).orElseThrow().properties()).containsEntry("by", "a");
    }

    @Test
    void unknownFields_surviveUpdateAndDrop() throws Exception {
        MetaKey key = ORDERS.key();
        store.create(
                key,
                MetaValue.utf8("{\"v\":1,\"state\":\"active\",\"generation\":4,\"location\":\"s3://a\","
                        + "\"format\":\"iceberg\",\"properties\":{\"owner\":\"x\"},\"retentionPolicy\":{\"days\":30},"
                        + "\"comment\":\"written by a newer tool\"}"));
        TableRegistration read = registry().get(ORDERS).orElseThrow();

        TableRegistration updated = registry()
                .update(read, read.spec().withProperty("tier", "gold"))
                .registration()
                .orElseThrow();
        JsonNode afterUpdate = json(store.get(key).orElseThrow());
        registry().drop(updated);
        JsonNode afterDrop = json(store.get(key).orElseThrow());

        assertThat(afterUpdate.path("generation").asLong()).isEqualTo(5);
        assertThat(afterUpdate.path("retentionPolicy").path("days").asInt())
                .as("an unknown field survives the update")
                .isEqualTo(30);
        assertThat(afterUpdate.path("comment").asText()).isEqualTo("written by a newer tool");
        assertThat(afterUpdate.path("properties").path("tier").asText()).isEqualTo("gold");
        assertThat(afterDrop.path("state").asText()).isEqualTo("dropped");
        assertThat(afterDrop.path("retentionPolicy").path("days").asInt())
                .as("an unknown field survives the drop")
                .isEqualTo(30);
        assertThat(afterDrop.path("comment").asText()).isEqualTo("written by a newer tool");
    }

    @Test
    void updateOfATombstone_isInvalid_andWritesNothing() {
        TableRegistration tombstone =
                registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();
        CountingMetaStore counting = new CountingMetaStore(store);

        assertThatThrownBy(() -> TableRegistry.over(counting, wall).update(tombstone, ORDERS_SPEC))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("dropped");
        assertThatThrownBy(() -> TableRegistry.over(counting, wall).drop(tombstone))
                .isInstanceOf(InvalidArgumentException.class);
        assertThat(counting.plainWrites()).isEmpty();
        assertThat(registry().get(ORDERS)).contains(tombstone);
    }
}
