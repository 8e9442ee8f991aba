/** Which store a command names ({@code rocks:}, {@code dynamo:}, {@code postgres:}) and how it is opened. */
package io.lake.meta.cli.store;
