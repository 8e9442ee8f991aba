package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.lock.FencedLockSuite;

/** The fenced-lock suite on PostgreSQL, one fresh table per test (one database per class). */
@Backend(PostgresBackend.class)
class PostgresFencedLockTest extends FencedLockSuite {}
