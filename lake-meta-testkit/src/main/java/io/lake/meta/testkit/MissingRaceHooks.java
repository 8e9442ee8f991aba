package io.lake.meta.testkit;

import io.lake.meta.spi.RaceHooks;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Remembers, per contract test class, that a commit never reached {@link RaceHooks#COMMIT_CHECKED},
 * so that the class's other race tests fail at once with the same explanation instead of each
 * waiting out its timeout.
 */
final class MissingRaceHooks {

    static final String HINT = "the store under test never called RaceHooks.reached(RaceHooks.COMMIT_CHECKED)."
            + " Call hooks.reached(RaceHooks.COMMIT_CHECKED) with the RaceHooks that openStore(hooks) received,"
            + " inside every commit whose preconditions hold: after they were checked, before the write is visible,"
            + " while other commits still wait (see RaceHooks). If the backend cannot (its commit runs in a server"
            + " the test cannot pause), override capabilities() to leave out ContractCapability.RACE_HOOKS;"
            + " override raceHookTimeout() (or set -D" + ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY + ") to fail sooner";

    private static final Map<Class<?>, String> SEEN = new ConcurrentHashMap<>();

    private MissingRaceHooks() {
    }

    /** Records that {@code contract}'s store missed the hook, and the failure to throw. */
    static AssertionError record(Class<?> contract, AssertionError timeout) {
        String message = timeout.getMessage() + ": " + HINT;
        SEEN.putIfAbsent(contract, message);
        return new AssertionError(message, timeout);
    }

    /** The failure an earlier race test of {@code contract} recorded, or null. */
    static @Nullable String seenIn(Class<?> contract) {
        return SEEN.get(contract);
    }
}
