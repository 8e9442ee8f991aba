package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.lease.LeaseFencingSuite;

/** The lease and fencing suite on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbLeaseFencingTest extends LeaseFencingSuite {}
