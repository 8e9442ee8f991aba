package io.lake.meta.testkit.ops;

import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.InMemoryBackend;

/** The operation journal suite on the in-memory model store. */
@Backend(InMemoryBackend.class)
class InMemoryOperationJournalTest extends OperationJournalSuite {}
