package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.registry.TableId;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sweeper locks every table of a page, one after another, each tick (100 by default, up to the
 * page limit). The provider's per-table locks must not each start a listener thread of their own:
 * nobody listens to them, yet each such thread stayed alive for its idle time, so one tick over a
 * page of tables left a page's worth of threads behind.
 */
class TableLockThreadsTest {

    private static final String LISTENER_THREAD = "lake-meta-lock-listener-";

    private final InMemoryMetaStore store = InMemoryMetaStore.create();

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void lockingManyTablesInTurn_startsNoListenerThreadPerTable() {
        int before = listenerThreads();
        try (FencedTableLocks locks = FencedTableLocks.builder()
                .store(store)
                .holderId("sweeper-a")
                .leaseDuration(Duration.ofSeconds(30))
                .build()) {
            for (int i = 0; i < 20; i++) {
                Optional<TableLock> lock = locks.tryLock(TableId.of("ns", "t" + i));
                assertThat(lock).isPresent();
                lock.get().close(); // released: the table's maintenance is done
            }
        }
        assertThat(listenerThreads() - before)
                .as("listener threads left behind by 20 table locks")
                .isLessThanOrEqualTo(1);
    }

    private static int listenerThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(LISTENER_THREAD))
                .count();
    }
}
