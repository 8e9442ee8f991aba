package io.lake.meta.ops;

/**
 * Where an operation is: running, or ended (terminal) one of two ways.
 *
 * @since 0.1.0
 */
public enum OperationState {

    /** Begun and not yet ended; the record names the leader (and its epoch) that runs it. */
    IN_PROGRESS("in_progress"),

    /** Ended with an outcome; a replay with the same digest returns it. */
    COMPLETED("completed"),

    /** Ended without effect, with a reason; a replay with the same digest returns that. */
    ABANDONED("abandoned");

    private final String wireName;

    OperationState(String wireName) {
        this.wireName = wireName;
    }

    /** The state's name in the stored record. */
    public String wireName() {
        return wireName;
    }

    /** Whether the operation has ended (so its record may be garbage-collected after the retention). */
    public boolean isTerminal() {
        return this != IN_PROGRESS;
    }
}
