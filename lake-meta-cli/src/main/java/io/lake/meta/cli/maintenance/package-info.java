/** {@code maintenance run --once}: one report-only tick of the maintenance sweeper. */
package io.lake.meta.cli.maintenance;
