package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import io.lake.meta.testserver.dynamodb.stats.ServerStatistics;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Supplier;

/**
 * The emulated service's state and its operations. Writes (and TransactGetItems) serialise on
 * one commit lock, which gives single-item and transactional atomicity. Reads (GetItem,
 * BatchGetItem, Query, Scan) never take the commit lock: they see each item either before or
 * after a write. A TransactWriteItems applies its items under the write side of a second lock,
 * {@link #visibility}, whose read side every read holds, so a read sees all of a transaction's
 * items or none of them; it waits only while a committed transaction's items are being put in
 * place, never while a write is paused before that.
 *
 * @since 0.1.0
 */
public final class Database {

    final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();
    final ReentrantLock commitLock = new ReentrantLock();
    /** Read side: every read; write side: a transaction putting its items in place. */
    final StampedLock visibility = new StampedLock();

    final Clock clock;
    final String region;
    final String account;
    final ServerStatistics stats;
    final PausePoints hooks;
    final IdempotencyCache idempotency;
    final java.time.Duration tableCreationDelay;

    private final TableOperations tableOps = new TableOperations(this);
    private final ItemOperations itemOps = new ItemOperations(this);
    private final ReadOperations readOps = new ReadOperations(this);
    private final TransactOperations transactOps = new TransactOperations(this);
    private final BatchOperations batchOps = new BatchOperations(this);

    /**
     * @param hooks called with {@code point} names at documented pause points, see
     *     {@code ServerHooks}
     */
    public Database(
            Clock clock,
            String region,
            String account,
            ServerStatistics stats,
            PausePoints hooks,
            java.time.Duration tableCreationDelay) {
        this.tableCreationDelay = tableCreationDelay;
        this.clock = clock;
        this.region = region;
        this.account = account;
        this.stats = stats;
        this.hooks = hooks;
        this.idempotency = new IdempotencyCache(clock);
    }

    /** Executes one operation on a parsed request body; throws {@code DynamoException} for error answers. */
    public ObjectNode execute(String operation, ObjectNode body) {
        switch (operation) {
            case "CreateTable":
                return tableOps.createTable(body);
            case "DescribeTable":
                return tableOps.describeTable(body);
            case "DeleteTable":
                return tableOps.deleteTable(body);
            case "ListTables":
                return tableOps.listTables(body);
            case "GetItem":
                return visibleRead(operation, body, () -> itemOps.getItem(body));
            case "PutItem":
                return itemOps.putItem(body);
            case "DeleteItem":
                return itemOps.deleteItem(body);
            case "UpdateItem":
                return itemOps.updateItem(body);
            case "Query":
                return visibleRead(operation, body, () -> readOps.query(body));
            case "Scan":
                return visibleRead(operation, body, () -> readOps.scan(body));
            case "TransactWriteItems":
                return transactOps.transactWriteItems(body);
            case "TransactGetItems":
                return transactOps.transactGetItems(body);
            case "BatchGetItem":
                return visibleRead(operation, body, () -> batchOps.batchGetItem(body));
            case "BatchWriteItem":
                return batchOps.batchWriteItem(body);
            default:
                throw Errors.unsupported("operation " + operation);
        }
    }

    /**
     * Runs a read under the read side of {@link #visibility}: it sees no transaction half applied.
     * When a transaction is putting its items in place, the read reaches {@link #READ_WAITING}
     * and then waits for it.
     */
    private ObjectNode visibleRead(String operation, JsonNode body, Supplier<ObjectNode> read) {
        long stamp = visibility.tryReadLock();
        if (stamp == 0L) {
            hooks.reached(READ_WAITING, operation, Requests.tableNames(body));
            stamp = visibility.readLock();
        }
        try {
            return read.get();
        } finally {
            visibility.unlockRead(stamp);
        }
    }

    /** Every table and item is dropped; idempotency tokens are forgotten. */
    public void clear() {
        commitLock.lock();
        try {
            tables.clear();
            idempotency.clear();
        } finally {
            commitLock.unlock();
        }
    }

    /** Whether an operation is one this emulator implements. */
    public static boolean supports(String operation) {
        switch (operation) {
            case "CreateTable":
            case "DescribeTable":
            case "DeleteTable":
            case "ListTables":
            case "GetItem":
            case "PutItem":
            case "DeleteItem":
            case "UpdateItem":
            case "Query":
            case "Scan":
            case "TransactWriteItems":
            case "TransactGetItems":
            case "BatchGetItem":
            case "BatchWriteItem":
                return true;
            default:
                return false;
        }
    }

    /** The table names a request addresses (for statistics and fault targeting). */
    public static java.util.Set<String> tableNames(JsonNode body) {
        return Requests.tableNames(body);
    }

    /**
     * The error an injected transaction conflict answers with: a cancellation with reason
     * TransactionConflict on action {@code actionIndex} for transactions, else
     * TransactionConflictException.
     */
    public static io.lake.meta.testserver.dynamodb.protocol.DynamoException transactionConflict(
            String operation, JsonNode body, int actionIndex) {
        if (operation.equals("TransactWriteItems") || operation.equals("TransactGetItems")) {
            return TransactOperations.conflict(body, actionIndex);
        }
        return Errors.transactionConflict();
    }

    /** The cancellation an injected {@code CANCELLATION} fault answers a transaction with. */
    public static io.lake.meta.testserver.dynamodb.protocol.DynamoException injectedCancellation(
            JsonNode body, int actionIndex, String code) {
        return TransactOperations.injected(body, actionIndex, code);
    }

    /** A table data-plane calls may use: existing and no longer CREATING. */
    Table table(String name) {
        Table t = tables.get(Requests.canonicalTableName(name));
        if (t == null || t.creating(clock.instant())) {
            throw Errors.tableNotFound();
        }
        return t;
    }

    /** Runs the write hook: the write's checks passed, its effect is not yet visible. */
    void writeChecked(String operation, java.util.Set<String> tableNames) {
        hooks.reached(WRITE_CHECKED, operation, tableNames);
    }

    /** Where the engine reports its pause points. */
    @FunctionalInterface
    public interface PausePoints {
        void reached(String point, String operation, java.util.Set<String> tableNames);
    }

    /** The pause point inside every write: conditions evaluated, write not yet visible. */
    public static final String WRITE_CHECKED = "dynamodb.write.checked";

    /** Inside a TransactWriteItems of several actions, after its first action took effect. */
    public static final String TRANSACTION_APPLYING = "dynamodb.transaction.applying";

    /** A read found a transaction putting its items in place and is about to wait for it. */
    public static final String READ_WAITING = "dynamodb.read.waiting";
}
