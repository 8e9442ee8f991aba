package io.lake.meta.testkit.ops;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The fenced publication coverage of the recipes on the in-memory model store. */
@Backend(InMemoryBackend.class)
class InMemoryFencedPublicationTest extends FencedPublicationSuite {}
