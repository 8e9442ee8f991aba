package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.MetaStoreSuite;

/** The whole MetaStore contract on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbMetaStoreContractTest extends MetaStoreSuite {}
