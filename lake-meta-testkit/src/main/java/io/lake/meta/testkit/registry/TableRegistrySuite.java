package io.lake.meta.testkit.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.registry.CorruptRegistrationException;
import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.InFlightHooks;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The table registry suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreTableRegistryTest extends TableRegistrySuite {}
 * }</pre>
 *
 * <p>Races are ordered by holding one writer's request in flight ({@link InFlightHooks}), never by sleeping.
 * @since 0.1.0
 */
public abstract class TableRegistrySuite extends RecipeSupport {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreTableRegistryTest extends TableRegistrySuite {}}. */
    protected TableRegistrySuite() {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    protected static final TableId ORDERS = TableId.of("sales", "orders");
    protected static final TableSpec ORDERS_SPEC = TableSpec.of("s3://lake/sales/orders", "iceberg")
            .withProperty("owner", "sales-team");

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

    private static JsonNode json(MetaValue value) throws Exception {
        return JSON.readTree(value.toByteArray());
    }

    @Nested
    class Registering {

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
            TableRegistration tombstone = registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();
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
            TableRegistration tombstone = registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();
            TableRegistration purging = registry().startPurge(tombstone).registration().orElseThrow();
            CountingMetaStore counting = new CountingMetaStore(store);

            assertThatThrownBy(() -> TableRegistry.over(counting, wall).supersede(purging, ORDERS_SPEC))
                    .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("purging")
                    .hasMessageContaining("wait");
            assertThat(counting.plainWrites()).isEmpty();
            assertThat(registry().get(ORDERS)).contains(purging);
        }

        @Test
        void invalidNames_areRejectedWithTheirRule_beforeAnything() {
            assertThatThrownBy(() -> TableId.of("sales/eu", "orders")).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("namespace 'sales/eu'");
            assertThatThrownBy(() -> TableId.of("sales", "")).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("table name");
            assertThatThrownBy(() -> TableId.of("-sales", "orders")).isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> TableId.of("sales", "x".repeat(TableId.MAX_PART_LENGTH + 1)))
                    .isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> TableRegistry.inNamespace("ns 1", 10)).isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> TableRegistry.allNamespaces(0)).isInstanceOf(InvalidArgumentException.class);
            assertThat(contents("tbl")).isEmpty();
        }
    }

    @Nested
    class Updating {

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
            TableRegistration winner = registry().update(read, ORDERS_SPEC.withProperty("by", "a"))
                    .registration().orElseThrow();

            RegistryWriteResult loser = registry().update(read, ORDERS_SPEC.withProperty("by", "b"));

            assertThat(loser.isConflict()).isTrue();
            assertThat(loser.registration()).contains(winner);
            assertThat(loser.registration().orElseThrow().generation()).isEqualTo(2);
            assertThat(registry().get(ORDERS).orElseThrow().properties()).containsEntry("by", "a");
        }

        @Test
        void unknownFields_surviveUpdateAndDrop() throws Exception {
            MetaKey key = ORDERS.key();
            store.create(key, MetaValue.utf8("{\"v\":1,\"state\":\"active\",\"generation\":4,\"location\":\"s3://a\","
                    + "\"format\":\"iceberg\",\"properties\":{\"owner\":\"x\"},\"retentionPolicy\":{\"days\":30},"
                    + "\"comment\":\"written by a newer tool\"}"));
            TableRegistration read = registry().get(ORDERS).orElseThrow();

            TableRegistration updated = registry().update(read, read.spec().withProperty("tier", "gold"))
                    .registration().orElseThrow();
            JsonNode afterUpdate = json(store.get(key).orElseThrow());
            registry().drop(updated);
            JsonNode afterDrop = json(store.get(key).orElseThrow());

            assertThat(afterUpdate.path("generation").asLong()).isEqualTo(5);
            assertThat(afterUpdate.path("retentionPolicy").path("days").asInt()).as("an unknown field survives the update")
                    .isEqualTo(30);
            assertThat(afterUpdate.path("comment").asText()).isEqualTo("written by a newer tool");
            assertThat(afterUpdate.path("properties").path("tier").asText()).isEqualTo("gold");
            assertThat(afterDrop.path("state").asText()).isEqualTo("dropped");
            assertThat(afterDrop.path("retentionPolicy").path("days").asInt()).as("an unknown field survives the drop")
                    .isEqualTo(30);
            assertThat(afterDrop.path("comment").asText()).isEqualTo("written by a newer tool");
        }

        @Test
        void updateOfATombstone_isInvalid_andWritesNothing() {
            TableRegistration tombstone = registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();
            CountingMetaStore counting = new CountingMetaStore(store);

            assertThatThrownBy(() -> TableRegistry.over(counting, wall).update(tombstone, ORDERS_SPEC))
                    .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("dropped");
            assertThatThrownBy(() -> TableRegistry.over(counting, wall).drop(tombstone))
                    .isInstanceOf(InvalidArgumentException.class);
            assertThat(counting.plainWrites()).isEmpty();
            assertThat(registry().get(ORDERS)).contains(tombstone);
        }
    }

    @Nested
    class Dropping {

        @Test
        void drop_leavesATombstone_thatKeepsTheLocation_andPagesReportAsDropped() {
            TableRegistration live = registered(ORDERS, ORDERS_SPEC);

            RegistryWriteResult dropped = registry().drop(live);

            assertThat(dropped.isApplied()).isTrue();
            TableRegistration tombstone = registry().get(ORDERS).orElseThrow();
            assertThat(tombstone.state()).isEqualTo(TableState.DROPPED);
            assertThat(tombstone.generation()).isEqualTo(2);
            assertThat(tombstone.location()).isEqualTo(ORDERS_SPEC.location());
            assertThat(tombstone.droppedAt()).contains(Instant.ofEpochMilli(wall.millis()));
            List<TableRegistration> listed = allPages(TableRegistry.inNamespace("sales", 10));
            assertThat(listed).containsExactly(tombstone);
            assertThat(listed.get(0).isDropped()).isTrue();
        }

        @Test
        void dropHeldInFlight_whileAnUpdateApplies_conflictsWithTheUpdatedRegistration() throws Exception {
            TableRegistration read = registered(ORDERS, ORDERS_SPEC);
            PausePoints points = new PausePoints();
            TableRegistry dropper = TableRegistry.over(new InFlightHooks(store, points), wall);
            PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_WRITE);
            Future<RegistryWriteResult> drop = inBackground(() -> dropper.drop(read));
            pause.awaitArrival();

            TableRegistration updated = registry().update(read, ORDERS_SPEC.withProperty("tier", "gold"))
                    .registration().orElseThrow();
            pause.release();

            RegistryWriteResult dropResult = drop.get();
            assertThat(dropResult.isConflict()).isTrue();
            assertThat(dropResult.registration()).contains(updated);
            assertThat(registry().get(ORDERS)).contains(updated);
            assertThat(updated.isDropped()).isFalse();
        }

        @Test
        void updateHeldInFlight_whileADropApplies_conflictsWithTheTombstone() throws Exception {
            TableRegistration read = registered(ORDERS, ORDERS_SPEC);
            PausePoints points = new PausePoints();
            TableRegistry updater = TableRegistry.over(new InFlightHooks(store, points), wall);
            PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_WRITE);
            Future<RegistryWriteResult> update = inBackground(() -> updater.update(read, ORDERS_SPEC.withProperty("x", "y")));
            pause.awaitArrival();

            TableRegistration tombstone = registry().drop(read).registration().orElseThrow();
            pause.release();

            RegistryWriteResult updateResult = update.get();
            assertThat(updateResult.isConflict()).isTrue();
            assertThat(updateResult.registration()).contains(tombstone);
            assertThat(registry().get(ORDERS).orElseThrow().isDropped()).isTrue();
        }

        @Test
        void tombstone_isDeletedOnlyInTwoSteps_purgeStartedThenDeleted() {
            TableRegistration tombstone = registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();

            assertThatThrownBy(() -> registry().deleteTombstone(tombstone)).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("start its purge first");
            TableRegistration purging = registry().startPurge(tombstone).registration().orElseThrow();
            assertThat(purging.state()).isEqualTo(TableState.PURGING);
            assertThat(purging.generation()).isEqualTo(3);
            assertThat(registry().get(ORDERS)).contains(purging);
            assertThat(registry().deleteTombstone(purging).isApplied()).isTrue();

            assertThat(registry().get(ORDERS)).isEmpty();
            assertThat(registry().register(ORDERS, ORDERS_SPEC).isApplied()).as("the name is free again").isTrue();
        }

        @Test
        void aPurgeInterruptedByACrash_isClaimedAgain_withTheNextGeneration_andALiveTableIsNeverPurged() {
            TableRegistration purging = registry().startPurge(
                    registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow()).registration().orElseThrow();
            wall.advance(Duration.ofMinutes(5));

            TableRegistration reclaimed = registry().startPurge(purging).registration().orElseThrow();

            assertThat(reclaimed.generation()).isEqualTo(purging.generation() + 1);
            assertThat(reclaimed.purgeStartedAt()).contains(Instant.ofEpochMilli(wall.millis()));
            assertThat(reclaimed.droppedAt()).isEqualTo(purging.droppedAt());
            TableRegistration live = registered(TableId.of("sales", "live"), ORDERS_SPEC);
            assertThatThrownBy(() -> registry().startPurge(live)).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("active");
            assertThat(registry().get(live.id())).contains(live);
        }

        @Test
        void deposedLeader_canNeitherDropNorFinishACleanup() {
            TableRegistration live = registered(ORDERS, ORDERS_SPEC);
            TableRegistration other = registry().drop(registered(TableId.of("sales", "old"), ORDERS_SPEC))
                    .registration().orElseThrow();
            TableRegistration purging = registry().startPurge(other).registration().orElseThrow();
            LeaderElection a = leader("node-a", new ManualTicker());
            TableRegistry registryOfA = TableRegistry.over(fenced(store, a), wall);
            takeOver("node-b");
            Map<MetaKey, MetaValue> before = contents("tbl", "lease");

            assertThatThrownBy(() -> registryOfA.drop(live)).isInstanceOf(FencedException.class);
            assertThatThrownBy(() -> registryOfA.deleteTombstone(purging)).isInstanceOf(FencedException.class);

            assertThat(contents("tbl", "lease")).isEqualTo(before);
        }
    }

    @Nested
    class Paging {

        @Test
        void fiveRegistrations_limitTwo_boundedPagesResumeToExactlyTheFive() {
            List<TableId> five = List.of(TableId.of("sales", "a"), TableId.of("sales", "b"), TableId.of("sales", "c"),
                    TableId.of("sales", "d"), TableId.of("sales", "e"));
            five.forEach(id -> registered(id, TableSpec.of("s3://lake/" + id, "iceberg")));

            List<TableId> seen = new ArrayList<>();
            int pages = 0;
            Optional<TypedPageRequest<TableRegistration>> request = Optional.of(TableRegistry.inNamespace("sales", 2));
            while (request.isPresent()) {
                TypedPage<TableRegistration> page = registry().scanTablesPage(request.get());
                assertThat(page.items().size()).as("page %d is bounded by its limit", pages).isLessThanOrEqualTo(2);
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
                TypedPage<TableRegistration> page = TableRegistry.over(store) // a new registry each time: the token is all it is given
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

            assertThat(allPages(TableRegistry.inNamespace("ns1", 10))).extracting(TableRegistration::id)
                    .containsExactlyInAnyOrder(TableId.of("ns1", "t"), TableId.of("ns1", "u"));
            assertThat(allPages(TableRegistry.inNamespace("ns10", 10))).extracting(TableRegistration::id)
                    .containsExactly(TableId.of("ns10", "t"));
            assertThat(allPages(TableRegistry.allNamespaces(10))).hasSize(3);
        }

        @Test
        void aTokenOfAnotherNamespace_isRefused() {
            registered(TableId.of("ns1", "a"), ORDERS_SPEC);
            registered(TableId.of("ns1", "b"), ORDERS_SPEC);
            String token = firstToken(TableRegistry.inNamespace("ns1", 1));

            assertThatThrownBy(() -> registry().scanTablesPage(TableRegistry.inNamespace("ns10", 1).after(token)))
                    .isInstanceOf(InvalidPageTokenException.class);
        }

        @Test
        void aRecordThatDoesNotDecode_failsThePageAndTheRead_namingTheKey_neverSkipped() {
            registered(TableId.of("sales", "a"), ORDERS_SPEC);
            MetaKey broken = MetaKey.of("tbl/sales/b");
            store.create(broken, MetaValue.utf8("{\"v\":1,\"state\":\"active\",\"location\":\"s3://b\"}"));

            assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("sales", 10)))
                    .isInstanceOf(CorruptRegistrationException.class).hasMessageContaining("tbl/sales/b")
                    .hasMessageContaining("generation")
                    .satisfies(e -> assertThat(((CorruptRegistrationException) e).key()).isEqualTo(broken));
            assertThatThrownBy(() -> registry().get(TableId.of("sales", "b")))
                    .isInstanceOf(CorruptRegistrationException.class).hasMessageContaining("tbl/sales/b");
        }

        @Test
        void aNewerRecordVersion_orNotJson_orAKeyOutsideTheNamingRules_isATypedErrorNamingTheKey() {
            store.create(MetaKey.of("tbl/a/newer"), MetaValue.utf8("{\"v\":2,\"state\":\"active\",\"generation\":1,"
                    + "\"location\":\"s3://x\",\"format\":\"iceberg\"}"));
            store.create(MetaKey.of("tbl/b/text"), MetaValue.utf8("not json"));
            store.create(MetaKey.of("tbl/c/deep/key"), registered(ORDERS, ORDERS_SPEC).storedValue());

            assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("a", 10)))
                    .isInstanceOf(CorruptRegistrationException.class).hasMessageContaining("tbl/a/newer")
                    .hasMessageContaining("record version 2");
            assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("b", 10)))
                    .isInstanceOf(CorruptRegistrationException.class).hasMessageContaining("tbl/b/text");
            assertThatThrownBy(() -> allPages(TableRegistry.inNamespace("c", 10)))
                    .isInstanceOf(CorruptRegistrationException.class).hasMessageContaining("tbl/c/deep/key");
        }
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

    private String firstToken(TypedPageRequest<TableRegistration> first) {
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
