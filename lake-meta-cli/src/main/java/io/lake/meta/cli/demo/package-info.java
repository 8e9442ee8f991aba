/** {@code demo}: lake-meta walked through, scene by scene, on an embedded RocksDB store. */
@NullMarked
package io.lake.meta.cli.demo;

import org.jspecify.annotations.NullMarked;
