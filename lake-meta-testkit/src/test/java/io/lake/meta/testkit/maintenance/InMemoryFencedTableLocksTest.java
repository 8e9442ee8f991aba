package io.lake.meta.testkit.maintenance;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The fenced table locks suite on the in-memory model store. */
@Backend(InMemoryBackend.class)
class InMemoryFencedTableLocksTest extends FencedTableLocksSuite {}
