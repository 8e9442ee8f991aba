package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.lock.FencedLockSuite;

/** The fenced-lock suite on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbFencedLockTest extends FencedLockSuite {}
