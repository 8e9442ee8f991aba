/** {@code ops show}: the operation journal, read-only. */
package io.lake.meta.cli.ops;
