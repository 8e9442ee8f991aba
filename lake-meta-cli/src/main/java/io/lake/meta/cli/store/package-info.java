/** Which store a command names ({@code rocks:}, {@code dynamo:}, {@code postgres:}) and how it is opened. */
@NullMarked
package io.lake.meta.cli.store;

import org.jspecify.annotations.NullMarked;
