package io.lake.meta.testserver.dynamodb.model;

import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.Base64;

/**
 * The base64 text of a B value or a BS element. DynamoDB's request deserializer accepts only
 * canonical, padded standard base64 and refuses anything else with a SerializationException
 * before any validation runs, so malformed text never becomes some other binary. Checks in its
 * order: the length, then the alphabet, then the padding and the unused bits of the last
 * character.
 */
final class Base64Text {

    private static final Base64.Decoder DECODER = Base64.getDecoder();
    private static final Base64.Encoder ENCODER = Base64.getEncoder();

    private Base64Text() {}

    static byte[] decode(String text) {
        if (text.length() % 4 != 0) {
            throw Errors.serialization(
                    "Base64 encoded length is expected a multiple of 4 bytes but found: " + text.length());
        }
        text.codePoints().filter(c -> !inAlphabet(c)).findFirst().ifPresent(c -> {
            throw Errors.serialization("Invalid Base64 character: '" + Character.toString(c) + "'");
        });
        byte[] bytes;
        try {
            bytes = DECODER.decode(text);
        } catch (IllegalArgumentException misplacedPadding) {
            throw lastCharacterInvalid();
        }
        if (!ENCODER.encodeToString(bytes).equals(text)) {
            throw lastCharacterInvalid(); // the last character carries bits the decoded bytes do not have
        }
        return bytes;
    }

    private static boolean inAlphabet(int c) {
        return (c >= 'A' && c <= 'Z')
                || (c >= 'a' && c <= 'z')
                || (c >= '0' && c <= '9')
                || c == '+'
                || c == '/'
                || c == '=';
    }

    /** DynamoDB's text, its misspelling included. */
    private static DynamoException lastCharacterInvalid() {
        return Errors.serialization("Invalid last non-pad Base64 character dectected");
    }
}
