package io.lake.meta.testserver.dynamodb.fault;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * The faults armed on a server, consulted for every request in arming order. Latency faults add
 * up; among the other faults, the first that matches and has hits left fires, and at most one
 * fires per request. Thread-safe.
 *
 * @since 0.1.0
 */
public final class FaultPlan {

    private final List<ArmedFault> armed = new CopyOnWriteArrayList<>();

    /** An empty plan; a server has its own ({@code DynamoDbTestServer.faults()}). */
    public FaultPlan() {}

    /** Arms a fault; returns its handle to observe how often it fired. */
    public ArmedFault arm(Fault fault) {
        ArmedFault a = new ArmedFault(fault);
        armed.add(a);
        return a;
    }

    /** Disarms every fault. */
    public void clear() {
        armed.clear();
    }

    /** The faults armed now, in arming order. */
    public List<ArmedFault> armed() {
        return List.copyOf(armed);
    }

    /** The faults that hit one request: total latency, and the other fault, if any. */
    public record Decision(Duration latency, @Nullable Fault fault) { // fault null: none
    }

    /** Decides, and consumes, the faults for one request. */
    public Decision decide(String operation, Set<String> tables, int attempt) {
        Duration latency = Duration.ZERO;
        Fault chosen = null;
        for (ArmedFault a : armed) {
            Fault f = a.fault();
            if (!f.matches(operation, tables, attempt)) {
                continue;
            }
            if (f.kind() == Fault.Kind.LATENCY) {
                if (a.tryFire()) {
                    latency = latency.plus(f.latency());
                }
            } else if (chosen == null && a.tryFire()) {
                chosen = f;
            }
        }
        return new Decision(latency, chosen);
    }
}
