/** {@code tables list|show}: the table registry, read-only. */
package io.lake.meta.cli.tables;
