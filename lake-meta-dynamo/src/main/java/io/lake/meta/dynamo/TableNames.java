package io.lake.meta.dynamo;

import io.lake.meta.InvalidArgumentException;
import java.util.regex.Pattern;

/** The configuration rules the store's and the migration's builders share. */
final class TableNames {

    private static final Pattern TABLE_NAME = Pattern.compile("[a-zA-Z0-9_.-]{3,255}");

    private TableNames() {}

    /** @param what "table name" or "legacy table name", for the message */
    static String requireValid(String name, String what) {
        if (name == null || !TABLE_NAME.matcher(name).matches()) {
            throw new InvalidArgumentException(what + " '" + name + "' is not a valid DynamoDB table name:"
                    + " use 3 to 255 characters of [a-zA-Z0-9_.-]");
        }
        return name;
    }

    static int requireValidShards(int shardCount) {
        if (shardCount < V2Layout.MIN_SHARDS || shardCount > V2Layout.MAX_SHARDS) {
            throw new InvalidArgumentException("shard count " + shardCount + " is out of range: use "
                    + V2Layout.MIN_SHARDS + " to " + V2Layout.MAX_SHARDS + " (more shards spread a hot family"
                    + " over more partitions, but a full prefix scan issues one query per shard)");
        }
        return shardCount;
    }
}
