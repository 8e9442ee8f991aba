package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import io.lake.meta.testserver.dynamodb.stats.ServerStatistics;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The emulated service's state and its operations. Writes (and TransactGetItems) serialise on
 * one commit lock, which gives single-item and transactional atomicity; point reads, queries and
 * scans read the concurrent item maps without the lock, so they see each item either before or
 * after a write (a Query or Scan may see part of a transaction, as DynamoDB documents).
 */
public final class Database {

    final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();
    final ReentrantLock commitLock = new ReentrantLock();
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
    public Database(Clock clock, String region, String account, ServerStatistics stats, PausePoints hooks,
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
            case "CreateTable": return tableOps.createTable(body);
            case "DescribeTable": return tableOps.describeTable(body);
            case "DeleteTable": return tableOps.deleteTable(body);
            case "ListTables": return tableOps.listTables(body);
            case "GetItem": return itemOps.getItem(body);
            case "PutItem": return itemOps.putItem(body);
            case "DeleteItem": return itemOps.deleteItem(body);
            case "UpdateItem": return itemOps.updateItem(body);
            case "Query": return readOps.query(body);
            case "Scan": return readOps.scan(body);
            case "TransactWriteItems": return transactOps.transactWriteItems(body);
            case "TransactGetItems": return transactOps.transactGetItems(body);
            case "BatchGetItem": return batchOps.batchGetItem(body);
            case "BatchWriteItem": return batchOps.batchWriteItem(body);
            default:
                throw Errors.unsupported("operation " + operation);
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
            case "CreateTable": case "DescribeTable": case "DeleteTable": case "ListTables":
            case "GetItem": case "PutItem": case "DeleteItem": case "UpdateItem":
            case "Query": case "Scan": case "TransactWriteItems": case "TransactGetItems":
            case "BatchGetItem": case "BatchWriteItem":
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
}
