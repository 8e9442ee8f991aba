package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.ops.OperationJournalSuite;

/** The operation journal suite on PostgreSQL, one fresh table per test (one database per class). */
@Backend(PostgresBackend.class)
class PostgresOperationJournalTest extends OperationJournalSuite {}
