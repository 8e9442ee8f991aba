package io.lake.meta.dynamo;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.ops.FencedPublicationSuite;

/** The fenced publication coverage of the recipes on DynamoDB (mode V2, 16 shards), one fresh table per test. */
@Backend(DynamoBackend.class)
class DynamoFencedPublicationTest extends FencedPublicationSuite {}
