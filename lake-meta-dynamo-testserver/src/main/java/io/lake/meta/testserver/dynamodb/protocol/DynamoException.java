package io.lake.meta.testserver.dynamodb.protocol;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;

/**
 * An error answer of the emulated service: the {@code __type}, the message (under the member
 * name real DynamoDB uses for that error, {@code message} or {@code Message}), the HTTP status
 * and any modelled members such as {@code CancellationReasons} or {@code Item}.
 *
 * @since 0.1.0
 */
public final class DynamoException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String type;
    private final String messageMember;
    private final int status;
    private final ObjectNode extra;

    DynamoException(String type, @Nullable String message, String messageMember, int status) {
        super(message, null, false, false);
        this.type = type;
        this.messageMember = messageMember;
        this.status = status;
        this.extra = JsonNodeFactory.instance.objectNode();
    }

    /** The full {@code __type}, namespace included. */
    public String type() {
        return type;
    }

    /** The error name after the namespace, such as {@code ValidationException}. */
    public String errorName() {
        int hash = type.indexOf('#');
        return hash < 0 ? type : type.substring(hash + 1);
    }

    public int status() {
        return status;
    }

    /** Modelled members added to the body beside {@code __type} and the message. */
    public ObjectNode extra() {
        return extra;
    }

    /** The JSON body, exactly as sent. */
    public ObjectNode body() {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("__type", type);
        body.setAll(extra);
        if (getMessage() != null) {
            body.put(messageMember, getMessage());
        }
        return body;
    }
}
