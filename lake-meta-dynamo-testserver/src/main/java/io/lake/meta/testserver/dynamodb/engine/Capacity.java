package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;

/**
 * DynamoDB's capacity arithmetic. Reads: one unit per 4 KB (rounded up, at least one), halved
 * for eventually consistent reads. Writes: one unit per 1 KB (rounded up, at least one).
 * Transactions: twice that, for the prepare and commit phases.
 */
final class Capacity {

    static final int READ_UNIT_BYTES = 4096;
    static final int WRITE_UNIT_BYTES = 1024;

    private Capacity() {}

    static double read(long bytes, boolean consistent) {
        long units = Math.max(1, (bytes + READ_UNIT_BYTES - 1) / READ_UNIT_BYTES);
        return consistent ? units : units / 2.0;
    }

    static double write(long bytes) {
        return Math.max(1, (bytes + WRITE_UNIT_BYTES - 1) / WRITE_UNIT_BYTES);
    }

    /**
     * The ConsumedCapacity of a single-table, non-transactional call, or null for NONE: TOTAL
     * gives the table name and units; INDEXES adds the table's share under {@code Table}.
     */
    static @Nullable ObjectNode single(@Nullable String mode, String table, double units) {
        if ("NONE".equals(mode)) {
            return null;
        }
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("TableName", table);
        c.put("CapacityUnits", units);
        if ("INDEXES".equals(mode)) {
            c.putObject("Table").put("CapacityUnits", units);
        }
        return c;
    }

    /** One entry of a multi-table ConsumedCapacity list, with the read and write split. */
    static ObjectNode multi(String mode, String table, double read, double write) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("TableName", table);
        c.put("CapacityUnits", read + write);
        if (read > 0) {
            c.put("ReadCapacityUnits", read);
        }
        if (write > 0) {
            c.put("WriteCapacityUnits", write);
        }
        if ("INDEXES".equals(mode)) {
            ObjectNode t = c.putObject("Table");
            t.put("CapacityUnits", read + write);
            if (read > 0) {
                t.put("ReadCapacityUnits", read);
            }
            if (write > 0) {
                t.put("WriteCapacityUnits", write);
            }
        }
        return c;
    }
}
