package io.lake.meta.testkit.maintenance;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The paged maintenance suite on the in-memory model store. */
@Backend(InMemoryBackend.class)
class InMemoryMaintenanceTest extends MaintenanceSuite {}
