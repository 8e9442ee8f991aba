package io.lake.meta.rocks;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.registry.TableRegistrySuite;

/** The table registry suite on the RocksDB store. */
@Backend(RocksDbBackend.class)
class RocksDbTableRegistryTest extends TableRegistrySuite {}
