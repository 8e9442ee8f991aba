/** {@code get}, {@code put}, {@code delete}, {@code scan}, {@code watch} and {@code txn}: keys and values, with their encodings. */
@NullMarked
package io.lake.meta.cli.kv;

import org.jspecify.annotations.NullMarked;
