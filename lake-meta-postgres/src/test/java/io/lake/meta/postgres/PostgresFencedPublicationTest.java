package io.lake.meta.postgres;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.ops.FencedPublicationSuite;

/** The fenced publication coverage of the recipes on PostgreSQL, one fresh table per test (one database per class). */
@Backend(PostgresBackend.class)
class PostgresFencedPublicationTest extends FencedPublicationSuite {}
