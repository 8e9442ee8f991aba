package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.MetaStoreSuite;

/** The whole MetaStore contract on PostgreSQL, one fresh table per store (one database per class). */
@Backend(PostgresBackend.class)
class PostgresMetaStoreContractTest extends MetaStoreSuite {}
