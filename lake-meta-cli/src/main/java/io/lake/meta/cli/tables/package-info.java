/** {@code tables list|show}: the table registry, read-only. */
@NullMarked
package io.lake.meta.cli.tables;

import org.jspecify.annotations.NullMarked;
