/** {@code dynamo-local} (the DynamoDB test server, standalone) and {@code dynamo-migrate} (the online migration of a legacy table). */
@NullMarked
package io.lake.meta.cli.dynamo;

import org.jspecify.annotations.NullMarked;
