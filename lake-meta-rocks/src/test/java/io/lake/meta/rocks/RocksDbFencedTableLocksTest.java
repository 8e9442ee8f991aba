package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.maintenance.FencedTableLocksSuite;

/** The fenced table locks suite on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbFencedTableLocksTest extends FencedTableLocksSuite {}
