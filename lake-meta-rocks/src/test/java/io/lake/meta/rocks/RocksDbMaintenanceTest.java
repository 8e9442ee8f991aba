package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.maintenance.MaintenanceSuite;

/** The paged maintenance suite on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbMaintenanceTest extends MaintenanceSuite {}
