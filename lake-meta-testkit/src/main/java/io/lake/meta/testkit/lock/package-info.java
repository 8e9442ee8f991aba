/**
 * The suites of the fenced lock ({@code io.lake.meta.lock}) on a backend.
 */
@NullMarked
package io.lake.meta.testkit.lock;

import org.jspecify.annotations.NullMarked;
