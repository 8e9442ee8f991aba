/**
 * The PostgreSQL backend of the {@link io.lake.meta.MetaStore} contract: open a store with
 * {@link io.lake.meta.postgres.PostgresMetaStore#builder()}.
 */
@NullMarked
package io.lake.meta.postgres;

import org.jspecify.annotations.NullMarked;
