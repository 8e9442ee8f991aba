package io.lake.meta.dynamo;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.counter.CounterSuite;

/** The counter suite on DynamoDB (mode V2, 16 shards), one fresh table per test. */
@Backend(DynamoBackend.class)
class DynamoCounterTest extends CounterSuite {}
