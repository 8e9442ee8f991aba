package io.lake.meta.testkit.lease;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The lease and fencing suite on the in-memory model store. */
@Backend(InMemoryBackend.class)
public class InMemoryLeaseFencingTest extends LeaseFencingSuite {}
