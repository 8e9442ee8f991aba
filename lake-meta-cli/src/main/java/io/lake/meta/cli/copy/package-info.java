/** {@code copy}: one store into another, resumable, then verified both ways. */
package io.lake.meta.cli.copy;
