/**
 * The {@code lake-meta} command: its entry point ({@link io.lake.meta.cli.LakeMetaCommand}), exit
 * codes, error handling, help and what the command families share (the argument check, JSON
 * output, progress bars, the base of the recipe commands). Each family of commands has a package
 * of its own: {@code kv} (get, put, delete, scan, watch, txn), {@code tables}, {@code maintenance},
 * {@code ops}, {@code copy}, {@code dynamo} (dynamo-local, dynamo-migrate), {@code bench},
 * {@code demo}; {@code store} parses and opens the stores they name.
 */
@NullMarked
package io.lake.meta.cli;

import org.jspecify.annotations.NullMarked;
