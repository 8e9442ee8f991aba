/**
 * The suites of the table registry ({@code io.lake.meta.registry}) on a backend.
 */
@NullMarked
package io.lake.meta.testkit.registry;

import org.jspecify.annotations.NullMarked;
