package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.maintenance.FencedTableLocksSuite;

/** The fenced table locks suite on PostgreSQL, one fresh table per test (one database per class). */
@Backend(PostgresBackend.class)
class PostgresFencedTableLocksTest extends FencedTableLocksSuite {}
