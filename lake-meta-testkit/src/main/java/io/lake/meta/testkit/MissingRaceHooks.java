package io.lake.meta.testkit;

import io.lake.meta.spi.RaceHooks;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Remembers, per backend, that a commit never reached {@link RaceHooks#COMMIT_CHECKED}, so that the
 * backend's other race tests fail at once with the same explanation instead of each waiting out its
 * timeout.
 */
final class MissingRaceHooks {

    static final String HINT = "the store under test never called RaceHooks.reached(RaceHooks.COMMIT_CHECKED)."
            + " Call hooks.reached(RaceHooks.COMMIT_CHECKED) with the RaceHooks of the StoreContext that"
            + " BackendFactory.open(context) received (context.raceHooks()), inside every commit whose preconditions"
            + " hold: after they were checked, before the write is visible, while other commits still wait (see"
            + " RaceHooks). If the backend cannot (its commit runs in a server the test cannot pause), return"
            + " Capabilities.all().without(Capability.RACE_HOOKS, \"<why>\") from the factory's capabilities();"
            + " to fail sooner, return SuiteSettings.defaults().withRaceHookTimeout(...) from its settings() (or set -D"
            + SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY + ")";

    private static final Map<BackendFactory, String> SEEN = Collections.synchronizedMap(new WeakHashMap<>());

    private MissingRaceHooks() {}

    /** Records that a store of {@code backend} missed the hook, and the failure to throw. */
    static AssertionError record(BackendFactory backend, AssertionError timeout) {
        String message = timeout.getMessage() + ": " + HINT;
        SEEN.putIfAbsent(backend, message);
        return new AssertionError(message, timeout);
    }

    /** The failure an earlier race test on {@code backend} recorded, or null. */
    static @Nullable String seenIn(BackendFactory backend) {
        return SEEN.get(backend);
    }
}
