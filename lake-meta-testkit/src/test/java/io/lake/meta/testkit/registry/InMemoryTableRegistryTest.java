package io.lake.meta.testkit.registry;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The table registry suite on the in-memory model store. */
@Backend(InMemoryBackend.class)
class InMemoryTableRegistryTest extends TableRegistrySuite {}
