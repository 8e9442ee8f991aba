package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.ops.OperationJournalSuite;

/** The operation journal suite on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbOperationJournalTest extends OperationJournalSuite {}
