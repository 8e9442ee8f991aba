package com.example.catalog.dynamo;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.lease.LeaseFencingSuite;

/** The lease and fencing suite on DynamoDB, in-process. */
@Backend(InProcessDynamoBackend.class)
class InProcessDynamoLeaseFencingTest extends LeaseFencingSuite {}
