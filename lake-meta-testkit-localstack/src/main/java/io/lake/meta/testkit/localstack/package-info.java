/**
 * The LocalStack container as a DynamoDB test target, found by the DynamoDB test kit when this
 * module is on the test class path.
 */
@NullMarked
package io.lake.meta.testkit.localstack;

import org.jspecify.annotations.NullMarked;
