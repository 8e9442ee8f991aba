/** Internal: attribute values, their JSON form, number rules and item sizes. Not a stable API. */
package io.lake.meta.testserver.dynamodb.model;
