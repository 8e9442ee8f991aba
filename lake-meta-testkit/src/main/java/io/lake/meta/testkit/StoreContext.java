package io.lake.meta.testkit;

import io.lake.meta.Ticker;
import io.lake.meta.spi.RaceHooks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What a suite hands {@link BackendFactory#open} for one store: the race hooks the store must call,
 * the clocks of the test, and directories for an embedded store. A store takes what it needs and
 * ignores the rest.
 *
 * @since 0.1.0
 */
public interface StoreContext {

    /**
     * The hooks the store must call at {@link RaceHooks#COMMIT_CHECKED} inside every commit: after
     * the commit's preconditions were checked, before its write becomes visible (see
     * {@link Capability#RACE_HOOKS}). The contract suite holds commits there; the other suites
     * hand {@link RaceHooks#NONE}.
     */
    RaceHooks raceHooks();

    /**
     * The wall clock of the test, for a store that reads wall time itself: in the lease and recipe
     * suites the manual clock their candidates read (it moves only when a test moves it, and may
     * step back, as NTP may); in the contract suite the system clock.
     */
    Clock clock();

    /**
     * The monotonic ticker the store should measure its own durations with (a resend window, a
     * deadline): {@link Ticker#system()} in every suite today. A suite that must move a store's
     * time will hand a manual one here, so a store that takes it needs no other change.
     */
    Ticker ticker();

    /**
     * A new, empty directory for an embedded store. The suite deletes it, with everything in it,
     * after the test and after closing every store it opened; a failure to delete fails the test.
     *
     * @throws IOException if the directory cannot be created
     */
    Path newDirectory() throws IOException;
}
