package io.lake.meta.testserver.dynamodb;

/**
 * Named pause points inside the server, for tests that prove races by ordering instead of by
 * sleeping. The server calls {@link #reached(String)} on the request's thread; a hook may block
 * there until the test releases it. Same shape as {@code io.lake.meta.spi.RaceHooks}, so
 * {@code raceHooks::reached} can be passed directly.
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

    /** Hooks that do nothing. */
    ServerHooks NONE = point -> { };

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
