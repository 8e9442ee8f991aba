package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.ops.FencedPublicationSuite;

/** The fenced publication coverage of the recipes on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbFencedPublicationTest extends FencedPublicationSuite {}
