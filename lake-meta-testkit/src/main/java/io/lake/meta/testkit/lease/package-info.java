/**
 * The suites of leases, leader election and fencing ({@code io.lake.meta.lease},
 * {@code io.lake.meta.fenced}) on a backend, with the clocks and fault decorators they drive.
 */
@NullMarked
package io.lake.meta.testkit.lease;

import org.jspecify.annotations.NullMarked;
