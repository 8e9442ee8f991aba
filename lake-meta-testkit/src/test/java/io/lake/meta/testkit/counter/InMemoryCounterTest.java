package io.lake.meta.testkit.counter;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The counter suite on the in-memory model store. */
@Backend(InMemoryBackend.class)
class InMemoryCounterTest extends CounterSuite {}
