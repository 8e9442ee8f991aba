/**
 * The suites of the operation journal ({@code io.lake.meta.ops}) on a backend.
 */
@NullMarked
package io.lake.meta.testkit.ops;

import org.jspecify.annotations.NullMarked;
