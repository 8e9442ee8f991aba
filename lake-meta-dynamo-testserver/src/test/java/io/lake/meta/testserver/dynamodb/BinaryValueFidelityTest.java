package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * B and BS values must be canonical, padded base64. The SDK always encodes binaries correctly, so
 * an interceptor of the SDK client replaces the string {@code "@b64@"} in a request body with the
 * malformed text under test: {@code {"S":"@b64@"}} becomes {@code {"B":"<text>"}}, and
 * {@code ["@b64@"]} inside a string set becomes the element of a BS.
 */
class BinaryValueFidelityTest extends ServerTestSupport {

    private static final String MARK = "@b64@";
    private static String replacement;
    private static DynamoDbClient rewriting;

    @BeforeAll
    static void rewritingClient() {
        ExecutionInterceptor rewrite = new ExecutionInterceptor() {
            @Override
            public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
                int length = rewritten(context).getBytes(StandardCharsets.UTF_8).length;
                return context.httpRequest().toBuilder()
                        .putHeader("Content-Length", Integer.toString(length))
                        .build();
            }

            @Override
            public Optional<RequestBody> modifyHttpContent(
                    Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
                return Optional.of(RequestBody.fromString(rewritten(context)));
            }
        };
        rewriting = DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.addExecutionInterceptor(rewrite))
                .build();
    }

    @AfterAll
    static void closeRewritingClient() {
        rewriting.close();
    }

    private static String rewritten(Context.ModifyHttpRequest context) {
        return context.requestBody()
                .map(BinaryValueFidelityTest::text)
                .orElse("")
                .replace("{\"S\":\"" + MARK + "\"}", "{\"B\":\"" + replacement + "\"}")
                .replace("{\"SS\":[\"" + MARK + "\"", "{\"BS\":[\"" + replacement + "\"");
    }

    private static String text(RequestBody body) {
        try (InputStream in = body.contentStreamProvider().newStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeEach
    void table() {
        createTable("bin", null);
    }

    /** The error code and message a PutItem of {@code value} (with the mark inside) answers with. */
    private static String putError(String malformed, AttributeValue value) {
        replacement = malformed;
        try {
            rewriting.putItem(r -> r.tableName("bin").item(Map.of("pk", s("k"), "v", value)));
            return "stored "
                    + client.getItem(r -> r.tableName("bin").key(key("k")).consistentRead(true))
                            .item()
                            .get("v");
        } catch (DynamoDbException e) {
            return e.awsErrorDetails().errorCode() + ": " + e.awsErrorDetails().errorMessage();
        }
    }

    private static final AttributeValue MARKED = s(MARK);

    @Test
    void malformedBase64_isRefusedNeverStoredAsOtherBytes() {
        Map<String, String> answers = new LinkedHashMap<>();
        for (String malformed : new String[] {"!!!!", "YW!j", "=YWJ", "YQ=a", "YR==", "YWI", "YWJjZGV"}) {
            answers.put(malformed, putError(malformed, MARKED));
        }
        assertThat(answers)
                .containsExactly(
                        Map.entry("!!!!", "SerializationException: Invalid Base64 character: '!'"),
                        Map.entry("YW!j", "SerializationException: Invalid Base64 character: '!'"),
                        Map.entry("=YWJ", "SerializationException: Invalid last non-pad Base64 character dectected"),
                        Map.entry("YQ=a", "SerializationException: Invalid last non-pad Base64 character dectected"),
                        Map.entry("YR==", "SerializationException: Invalid last non-pad Base64 character dectected"),
                        Map.entry(
                                "YWI",
                                "SerializationException: Base64 encoded length is expected a multiple of 4 bytes but found: 3"),
                        Map.entry(
                                "YWJjZGV",
                                "SerializationException: Base64 encoded length is expected a multiple of 4 bytes "
                                        + "but found: 7"));
        assertThat(putError("YWI=", MARKED)).isEqualTo("stored " + b((byte) 'a', (byte) 'b'));
        assertThat(putError("", MARKED)).isEqualTo("stored " + b());
    }

    @Test
    void malformedBase64_inEveryPlaceABinaryIsRead_isRefused() {
        String refused = "SerializationException: Invalid Base64 character: '!'";
        assertThat(putError("YW!j", AttributeValue.builder().ss(MARK, "YWJj").build()))
                .as("a BS element")
                .isEqualTo(refused);
        assertThat(putError(
                        "YW!j",
                        AttributeValue.builder().m(Map.of("inner", MARKED)).build()))
                .as("in a map")
                .isEqualTo(refused);
        assertThat(putError("YW!j", AttributeValue.builder().l(MARKED).build()))
                .as("in a list")
                .isEqualTo(refused);
        replacement = "YW!j";
        assertThat(answer(() -> rewriting.getItem(r -> r.tableName("bin").key(Map.of("pk", MARKED)))))
                .as("a key")
                .isEqualTo(refused);
        assertThat(answer(() -> rewriting.putItem(r -> r.tableName("bin")
                        .item(Map.of("pk", s("k")))
                        .conditionExpression("v = :b")
                        .expressionAttributeValues(Map.of(":b", MARKED)))))
                .as("an expression attribute value")
                .isEqualTo(refused);
    }

    private static String answer(Runnable call) {
        try {
            call.run();
            return "no error";
        } catch (DynamoDbException e) {
            return e.awsErrorDetails().errorCode() + ": " + e.awsErrorDetails().errorMessage();
        }
    }
}
