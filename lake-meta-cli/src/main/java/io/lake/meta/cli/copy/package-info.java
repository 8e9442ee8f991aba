/** {@code copy}: one store into another, resumable, then verified both ways. */
@NullMarked
package io.lake.meta.cli.copy;

import org.jspecify.annotations.NullMarked;
