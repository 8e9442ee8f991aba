package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.counter.CounterSuite;

/** The counter suite on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbCounterTest extends CounterSuite {}
