/** {@code ops show}: the operation journal, read-only. */
@NullMarked
package io.lake.meta.cli.ops;

import org.jspecify.annotations.NullMarked;
