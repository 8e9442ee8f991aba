package io.lake.meta.dynamo;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.registry.TableRegistrySuite;

/** The table registry suite on DynamoDB (mode V2, 16 shards), one fresh table per test. */
@Backend(DynamoBackend.class)
class DynamoTableRegistryTest extends TableRegistrySuite {}
