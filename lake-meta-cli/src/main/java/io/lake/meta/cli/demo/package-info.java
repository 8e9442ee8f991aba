/** {@code demo}: lake-meta walked through, scene by scene, on an embedded RocksDB store. */
package io.lake.meta.cli.demo;
