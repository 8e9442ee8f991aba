package io.lake.meta.testserver.dynamodb.protocol;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;

/**
 * The errors the emulator sends, with the namespaces, message member spellings and HTTP
 * statuses real DynamoDB uses. Namespaces: data-plane errors under
 * {@code com.amazonaws.dynamodb.v20120810}, validation under {@code com.amazon.coral.validate},
 * protocol errors under {@code com.amazon.coral.service}, control-plane throttling under
 * {@code com.amazon.coral.availability}.
 *
 * @since 0.1.0
 */
public final class Errors {

    public static final String DYNAMO = "com.amazonaws.dynamodb.v20120810#";
    public static final String VALIDATE = "com.amazon.coral.validate#";
    public static final String CORAL = "com.amazon.coral.service#";
    public static final String AVAILABILITY = "com.amazon.coral.availability#";

    /** The message a throttled provisioned table answers with. */
    public static final String THROUGHPUT_EXCEEDED_MESSAGE =
            "The level of configured provisioned throughput for the table was exceeded. "
                    + "Consider increasing your provisioning level with the UpdateTable API.";

    private Errors() {}

    public static DynamoException validation(@Nullable String message) {
        return new DynamoException(VALIDATE + "ValidationException", message, "message", 400);
    }

    /**
     * A request this emulator cannot answer faithfully: always an error naming what is
     * unsupported, never a silent wrong answer.
     */
    public static DynamoException unsupported(String what) {
        return validation("Unsupported by the lake-meta DynamoDB test server: " + what);
    }

    public static DynamoException serialization(@Nullable String message) {
        return new DynamoException(CORAL + "SerializationException", message, "Message", 400);
    }

    public static DynamoException unknownOperation() {
        return new DynamoException(CORAL + "UnknownOperationException", null, "message", 400);
    }

    public static DynamoException resourceNotFound(String message) {
        return new DynamoException(DYNAMO + "ResourceNotFoundException", message, "message", 400);
    }

    /** The data-plane answer for a table that does not exist. */
    public static DynamoException tableNotFound() {
        return resourceNotFound("Requested resource not found");
    }

    public static DynamoException resourceInUse(String message) {
        return new DynamoException(DYNAMO + "ResourceInUseException", message, "message", 400);
    }

    public static DynamoException conditionalCheckFailed(@Nullable ObjectNode itemOrNull) {
        DynamoException e = new DynamoException(
                DYNAMO + "ConditionalCheckFailedException", "The conditional request failed", "message", 400);
        if (itemOrNull != null) {
            e.extra().set("Item", itemOrNull);
        }
        return e;
    }

    public static DynamoException transactionCanceled(String message, ArrayNode reasons) {
        DynamoException e = new DynamoException(DYNAMO + "TransactionCanceledException", message, "Message", 400);
        e.extra().set("CancellationReasons", reasons);
        return e;
    }

    public static DynamoException transactionConflict() {
        return new DynamoException(
                DYNAMO + "TransactionConflictException", "Transaction is ongoing for the item.", "message", 400);
    }

    public static DynamoException transactionInProgress() {
        return new DynamoException(
                DYNAMO + "TransactionInProgressException",
                "Transaction from previous request is still in progress",
                "Message",
                400);
    }

    public static DynamoException idempotentParameterMismatch() {
        return new DynamoException(
                DYNAMO + "IdempotentParameterMismatchException",
                "The request uses the same client token as a previous, but non-identical request.",
                "Message",
                400);
    }

    public static DynamoException provisionedThroughputExceeded() {
        return new DynamoException(
                DYNAMO + "ProvisionedThroughputExceededException", THROUGHPUT_EXCEEDED_MESSAGE, "message", 400);
    }

    public static DynamoException throttling() {
        return new DynamoException(
                AVAILABILITY + "ThrottlingException",
                "Rate of requests exceeds the allowed throughput.",
                "message",
                400);
    }

    public static DynamoException internalServerError() {
        return internalServerError("Internal server error");
    }

    public static DynamoException internalServerError(String message) {
        return new DynamoException(DYNAMO + "InternalServerError", message, "message", 500);
    }

    public static DynamoException serviceUnavailable() {
        return new DynamoException(AVAILABILITY + "ServiceUnavailableException", "Service unavailable", "message", 503);
    }
}
