/**
 * The embedded RocksDB backend of the {@link io.lake.meta.MetaStore} contract. Open a store with
 * {@link io.lake.meta.rocks.RocksDbMetaStore#builder()}, choosing a
 * {@link io.lake.meta.rocks.Durability}; everything else in this package is an implementation
 * detail.
 *
 * <p>On disk: public keys are stored as their UTF-8 bytes (they always start with
 * {@code [a-z0-9]}); internal records, such as the format marker checked on every open, live
 * under keys starting with {@code 0x00}, which no public key or prefix can reach.
 */
@NullMarked
package io.lake.meta.rocks;

import org.jspecify.annotations.NullMarked;
