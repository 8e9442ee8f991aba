/**
 * Internal: DynamoDB's expression languages (condition, filter, key condition, projection,
 * update) with a lexer, a recursive-descent parser and evaluators. Not a stable API.
 */
@NullMarked
package io.lake.meta.testserver.dynamodb.expr;

import org.jspecify.annotations.NullMarked;
