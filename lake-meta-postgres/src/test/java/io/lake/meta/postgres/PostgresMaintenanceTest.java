package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.maintenance.MaintenanceSuite;

/** The paged maintenance suite on PostgreSQL, one fresh table per test (one database per class). */
@Backend(PostgresBackend.class)
class PostgresMaintenanceTest extends MaintenanceSuite {}
