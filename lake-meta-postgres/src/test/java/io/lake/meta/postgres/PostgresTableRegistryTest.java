package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.registry.TableRegistrySuite;

/** The table registry suite on PostgreSQL, one fresh table per test (one database per class). */
@Backend(PostgresBackend.class)
class PostgresTableRegistryTest extends TableRegistrySuite {}
