/** Internal: attribute values, their JSON form, number rules and item sizes. Not a stable API. */
@NullMarked
package io.lake.meta.testserver.dynamodb.model;

import org.jspecify.annotations.NullMarked;
