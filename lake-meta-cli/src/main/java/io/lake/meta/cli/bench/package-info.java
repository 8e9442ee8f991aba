/** {@code bench}: the JMH benchmarks of the backends on this machine. */
package io.lake.meta.cli.bench;
