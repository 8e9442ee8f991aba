package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.lease.LeaseFencingSuite;

/** The lease and fencing suite on PostgreSQL, one fresh table per test (one database per class). */
@Backend(PostgresBackend.class)
class PostgresLeaseFencingTest extends LeaseFencingSuite {}
