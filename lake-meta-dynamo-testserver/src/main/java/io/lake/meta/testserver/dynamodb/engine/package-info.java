/** Internal: tables, items and the semantics of each operation. Not a stable API. */
@NullMarked
package io.lake.meta.testserver.dynamodb.engine;

import org.jspecify.annotations.NullMarked;
