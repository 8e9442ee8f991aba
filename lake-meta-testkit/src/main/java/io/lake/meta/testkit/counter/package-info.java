/**
 * The suites of the counter recipes ({@code io.lake.meta.counter}) on a backend.
 */
@NullMarked
package io.lake.meta.testkit.counter;

import org.jspecify.annotations.NullMarked;
