package com.example.catalog.dynamo;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.MetaStoreSuite;

/** The whole MetaStore contract on DynamoDB, in-process. */
@Backend(InProcessDynamoBackend.class)
class InProcessDynamoContractTest extends MetaStoreSuite {}
