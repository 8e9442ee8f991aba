package io.lake.meta.testkit.maintenance;

import io.lake.meta.MetaStore;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TableLockProvider;
import io.lake.meta.registry.TableId;
import io.lake.meta.spi.RaceHooks;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link TableLockProvider} for tests and single-process services: one in-process lock per
 * table, every held lock handing out the same store view (pass a fenced store to fence the
 * sweeper's writes by the process's leadership). Calls {@link RaceHooks#reached} at
 * {@link #LOCKED} right after a lock was taken, so a test can act while the sweeper holds a lock
 * and has not re-read the table yet. Records which tables were locked. Thread-safe.
 *
 * @since 0.1.0
 */
public final class InProcessTableLocks implements TableLockProvider {

    /** Reached after a lock was taken, before the holder does anything with it. */
    public static final String LOCKED = "maintenance-test.locked";

    private final MetaStore view;
    private final RaceHooks hooks;
    private final Set<TableId> held = ConcurrentHashMap.newKeySet();
    private final List<TableId> taken = new CopyOnWriteArrayList<>();

    /** Table locks held in this process, over {@code view}. */
    public InProcessTableLocks(MetaStore view) {
        this(view, RaceHooks.NONE);
    }

    /** Table locks held in this process, over {@code view}, calling {@code hooks} while a lock is taken. */
    public InProcessTableLocks(MetaStore view, RaceHooks hooks) {
        this.view = Objects.requireNonNull(view, "view");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
    }

    @Override
    public Optional<TableLock> tryLock(TableId table) {
        if (!held.add(table)) {
            return Optional.empty();
        }
        taken.add(table);
        TableLock lock = new Held(table);
        hooks.reached(LOCKED);
        return Optional.of(lock);
    }

    /** Takes {@code table}'s lock as another holder would; {@code close()} releases it. */
    public TableLock holdElsewhere(TableId table) {
        return tryLock(table).orElseThrow(() -> new IllegalStateException(table + " is already locked"));
    }

    /** Whether {@code table}'s lock is held now. */
    public boolean isHeld(TableId table) {
        return held.contains(table);
    }

    /** Every lock taken so far, in order. */
    public List<TableId> taken() {
        return List.copyOf(taken);
    }

    private final class Held implements TableLock {
        private final TableId table;
        private final AtomicBoolean released = new AtomicBoolean();

        Held(TableId table) {
            this.table = table;
        }

        @Override
        public MetaStore store() {
            return view;
        }

        @Override
        public void close() {
            if (released.compareAndSet(false, true)) {
                held.remove(table);
            }
        }
    }
}
