/** Internal: the JSON 1.0 wire protocol over the JDK HTTP server, and the error catalogue. Not a stable API. */
@NullMarked
package io.lake.meta.testserver.dynamodb.protocol;

import org.jspecify.annotations.NullMarked;
