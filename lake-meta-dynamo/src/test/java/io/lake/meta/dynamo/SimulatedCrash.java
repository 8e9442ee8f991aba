package io.lake.meta.dynamo;

/**
 * Thrown from a race hook to stop a migration step where a crashed process would stop: an
 * {@link Error}, so that no clean-up meant for store failures runs, as none would after a crash.
 */
final class SimulatedCrash extends Error {

    SimulatedCrash(String point) {
        super("simulated crash at " + point);
    }
}
