/**
 * Runs the suites on PostgreSQL: a server per test JVM from the binaries Maven downloads, or the
 * one the environment names, and a proxy that cuts connections for the race tests.
 */
@NullMarked
package io.lake.meta.testkit.postgres;

import org.jspecify.annotations.NullMarked;
