/**
 * Runs the suites on DynamoDB: the in-process test server as a JUnit extension, or the target
 * the environment names ({@link io.lake.meta.testkit.dynamo.DynamoTestTarget}).
 */
@NullMarked
package io.lake.meta.testkit.dynamo;

import org.jspecify.annotations.NullMarked;
