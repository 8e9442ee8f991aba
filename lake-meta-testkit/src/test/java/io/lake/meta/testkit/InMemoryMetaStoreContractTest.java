package io.lake.meta.testkit;

/** The whole contract suite, run on the model itself. */
@Backend(InMemoryBackend.class)
class InMemoryMetaStoreContractTest extends MetaStoreSuite {}
