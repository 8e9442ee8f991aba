/** Internal: tables, items and the semantics of each operation. Not a stable API. */
package io.lake.meta.testserver.dynamodb.engine;
