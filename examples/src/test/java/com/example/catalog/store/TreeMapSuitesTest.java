package com.example.catalog.store;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.MetaStoreSuite;
import io.lake.meta.testkit.counter.CounterSuite;
import io.lake.meta.testkit.lease.LeaseFencingSuite;
import io.lake.meta.testkit.lock.FencedLockSuite;
import io.lake.meta.testkit.maintenance.FencedTableLocksSuite;
import io.lake.meta.testkit.maintenance.MaintenanceSuite;
import io.lake.meta.testkit.ops.FencedPublicationSuite;
import io.lake.meta.testkit.ops.OperationJournalSuite;
import io.lake.meta.testkit.registry.TableRegistrySuite;
import org.junit.jupiter.api.Nested;

/** Every suite of the testkit on the example's own backend, from its one factory. */
@Backend(TreeMapBackend.class)
class TreeMapSuitesTest {

    @Nested
    class Contract extends MetaStoreSuite {}

    @Nested
    class LeaseFencing extends LeaseFencingSuite {}

    @Nested
    class FencedLocks extends FencedLockSuite {}

    @Nested
    class Counters extends CounterSuite {}

    @Nested
    class TableRegistry extends TableRegistrySuite {}

    @Nested
    class Maintenance extends MaintenanceSuite {}

    @Nested
    class FencedTableLocks extends FencedTableLocksSuite {}

    @Nested
    class OperationJournal extends OperationJournalSuite {}

    @Nested
    class FencedPublication extends FencedPublicationSuite {}
}
