package io.lake.meta.testkit.lock;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The fenced-lock suite on the in-memory model store. */
@Backend(InMemoryBackend.class)
class InMemoryFencedLockTest extends FencedLockSuite {}
