package io.lake.meta.testserver.dynamodb;

/**
 * Named pause points inside the server, for tests that prove races by ordering instead of by
 * sleeping. The server calls {@link #reached(String)} on the request's thread; a hook may block
 * there until the test releases it. Same shape as {@code io.lake.meta.spi.RaceHooks}, so
 * {@code raceHooks::reached} can be passed directly.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ServerHooks {

    /**
     * Reached inside every write (PutItem, DeleteItem, UpdateItem, TransactWriteItems,
     * BatchWriteItem) after its conditions were evaluated and passed, and before its effect is
     * visible. The server's commit lock is held, so every other write waits; point reads, queries
     * and scans still run and still see the state before this write.
     */
    String WRITE_CHECKED = "dynamodb.write.checked";

    /**
     * Reached inside a TransactWriteItems of two or more actions, after its first action took
     * effect and before the others do, with the commit lock held. Reads started meanwhile (GetItem,
     * BatchGetItem, Query, Scan) reach {@link #READ_WAITING} and wait until the transaction's
     * items are all in place: no read sees a transaction half applied. A test blocking here must
     * not wait for such a read to answer.
     */
    String TRANSACTION_APPLYING = "dynamodb.transaction.applying";

    /**
     * Reached by a read (GetItem, BatchGetItem, Query, Scan) that found a transaction putting its
     * items in place, just before it waits for that transaction; the read then sees all of them.
     */
    String READ_WAITING = "dynamodb.read.waiting";

    /** Hooks that do nothing. */
    ServerHooks NONE = point -> {};

    /** Called at {@code point} on the request's thread; act only on the points you care about. */
    void reached(String point);

    /**
     * The same, with context: the operation (such as {@code "PutItem"}) and the tables it writes.
     * The server calls this method; by default it forwards to {@link #reached(String)}, so a
     * lambda sees only the point while an implementation overriding this method can pause, say,
     * only the writes of one table.
     */
    default void reached(String point, String operation, java.util.Set<String> tables) {
        reached(point);
    }
}
