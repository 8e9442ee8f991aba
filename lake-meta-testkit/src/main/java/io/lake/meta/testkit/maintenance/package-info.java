/**
 * The suites of table maintenance ({@code io.lake.meta.maintenance}) on a backend.
 */
@NullMarked
package io.lake.meta.testkit.maintenance;

import org.jspecify.annotations.NullMarked;
