package io.lake.meta.testkit.history;

import java.util.Objects;

/**
 * One call of one client, with the logical times of its invocation and of its answer. Times
 * come from one counter shared by every client of a history, read just before the call was sent
 * and just after its answer came back, so {@code a.answeredAt() < b.invokedAt()} means that
 * {@code a} really finished before {@code b} began.
 *
 * @param id the operation's number in its history, from 0
 * @param client who made the call (a thread name), for reports
 * @param call what was asked
 * @param outcome what the store answered
 * @param invokedAt logical time of the invocation
 * @param answeredAt logical time of the answer (also for unknown outcomes, for reports; the
 *     checker lets an unknown operation take effect after it)
 * @since 0.1.0
 */
public record Operation(int id, String client, Call call, Outcome outcome, long invokedAt, long answeredAt) {

    public Operation {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(outcome, "outcome");
        if (answeredAt <= invokedAt) {
            throw new IllegalArgumentException(
                    "operation " + id + " is answered at " + answeredAt + ", not after its invocation at " + invokedAt);
        }
    }

    @Override
    public String toString() {
        return "#" + id + " [" + client + " " + invokedAt + ".." + answeredAt + "] " + call + " -> " + outcome;
    }
}
