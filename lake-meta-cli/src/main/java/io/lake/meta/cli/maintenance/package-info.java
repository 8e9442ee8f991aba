/** {@code maintenance run --once}: one report-only tick of the maintenance sweeper. */
@NullMarked
package io.lake.meta.cli.maintenance;

import org.jspecify.annotations.NullMarked;
