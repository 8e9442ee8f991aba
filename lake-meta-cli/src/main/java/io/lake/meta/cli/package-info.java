/**
 * The {@code lake-meta} command line: one picocli command per file, the store specs it opens
 * ({@code rocks:}, {@code dynamo:}, {@code postgres:}) and its output formats.
 */
@NullMarked
package io.lake.meta.cli;

import org.jspecify.annotations.NullMarked;
