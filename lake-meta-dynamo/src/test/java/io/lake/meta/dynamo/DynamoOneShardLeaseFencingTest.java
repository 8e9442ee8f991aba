package io.lake.meta.dynamo;

import java.util.Optional;

/** The lease and fencing suite in mode V2 on 1 shard (the default count runs in {@link DynamoLeaseFencingTest}). */
class DynamoOneShardLeaseFencingTest extends DynamoLeaseFencingTest {

    @Override
    protected Optional<Integer> shardCount() {
        return Optional.of(1);
    }
}
