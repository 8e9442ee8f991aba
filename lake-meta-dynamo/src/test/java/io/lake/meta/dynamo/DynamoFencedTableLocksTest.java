package io.lake.meta.dynamo;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.maintenance.FencedTableLocksSuite;

/** The fenced table locks suite on DynamoDB (mode V2, 16 shards), one fresh table per test. */
@Backend(DynamoBackend.class)
class DynamoFencedTableLocksTest extends FencedTableLocksSuite {}
