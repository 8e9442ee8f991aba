/**
 * The DynamoDB backend of the {@link io.lake.meta.MetaStore} contract: open a store with
 * {@link io.lake.meta.dynamo.DynamoMetaStore#builder()}, and migrate a legacy table online with
 * {@link io.lake.meta.dynamo.DynamoMigration}.
 */
@NullMarked
package io.lake.meta.dynamo;

import org.jspecify.annotations.NullMarked;
