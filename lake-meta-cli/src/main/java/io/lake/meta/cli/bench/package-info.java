/** {@code bench}: the JMH benchmarks of the backends on this machine. */
@NullMarked
package io.lake.meta.cli.bench;

import org.jspecify.annotations.NullMarked;
