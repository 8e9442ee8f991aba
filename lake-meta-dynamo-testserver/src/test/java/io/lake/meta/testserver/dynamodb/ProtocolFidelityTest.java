package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

class ProtocolFidelityTest extends ServerTestSupport {

    private static HttpResponse<String> post(String target, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.endpoint())
                .header("Content-Type", "application/x-amz-json-1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (target != null) {
            request.header("X-Amz-Target", target);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void emptyResult_isEmptyObjectWithCrc32AndRequestId() throws Exception {
        HttpResponse<String> response = post("DynamoDB_20120810.ListTables", "{}");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"TableNames\":[]}");
        CRC32 crc = new CRC32();
        crc.update(response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(response.headers().firstValue("x-amz-crc32")).hasValue(Long.toString(crc.getValue()));
        assertThat(response.headers().firstValue("x-amzn-RequestId").orElseThrow())
                .matches("[A-Z0-9]{52}");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.0");
    }

    @Test
    void emptyPutItemAnswer_isEmptyObjectWithTheDocumentedCrc32() throws Exception {
        createTable("crc", null);
        HttpResponse<String> response =
                post("DynamoDB_20120810.PutItem", "{\"TableName\":\"crc\",\"Item\":{\"pk\":{\"S\":\"a\"}}}");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{}");
        assertThat(response.headers().firstValue("x-amz-crc32")).hasValue("2745614147");
    }

    @Test
    void unknownTarget_isUnknownOperationException() throws Exception {
        HttpResponse<String> response = post("DynamoDB_20120810.Frobnicate", "{}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("{\"__type\":\"com.amazon.coral.service#UnknownOperationException\"}");
        assertThat(response.headers().firstValue("x-amz-crc32")).isPresent();
    }

    @Test
    void missingTarget_isUnknownOperationException() throws Exception {
        HttpResponse<String> response = post(null, "{}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("UnknownOperationException");
    }

    @Test
    void invalidJson_isSerializationException() throws Exception {
        HttpResponse<String> response = post("DynamoDB_20120810.ListTables", "{not json");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"__type\":\"com.amazon.coral.service#SerializationException\"");
    }

    @Test
    void wrongJsonType_isSerializationExceptionWithCapitalMessage() throws Exception {
        HttpResponse<String> response = post("DynamoDB_20120810.DescribeTable", "{\"TableName\":5}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .isEqualTo("{\"__type\":\"com.amazon.coral.service#SerializationException\","
                        + "\"Message\":\"NUMBER_VALUE cannot be converted to String\"}");
    }

    @Test
    void realButUnimplementedOperation_isNamedInTheError() throws Exception {
        HttpResponse<String> response = post("DynamoDB_20120810.UpdateTimeToLive", "{}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("com.amazon.coral.validate#ValidationException")
                .contains("operation UpdateTimeToLive");
    }

    @Test
    void validationError_usesCoralValidateNamespace() throws Exception {
        HttpResponse<String> response = post("DynamoDB_20120810.GetItem", "{\"TableName\":\"ab!\",\"Key\":{}}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .startsWith("{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"message\":");
    }

    @Test
    void getRoot_answersHealthy() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(server.endpoint()).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("healthy: dynamodb.us-east-1.amazonaws.com ");
    }

    @Test
    void otherMethods_are404() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(server.endpoint())
                                .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("<UnknownOperationException/>");
    }

    @Test
    void bodyOver16Mebibytes_is413() throws Exception {
        byte[] huge = new byte[16 * 1024 * 1024 + 1];
        java.util.Arrays.fill(huge, (byte) ' ');
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(server.endpoint())
                                .header("X-Amz-Target", "DynamoDB_20120810.ListTables")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(huge))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(413);
    }

    @Test
    void sdkError_carriesCodeStatusRequestIdAndMessage() {
        assertThatThrownBy(() -> client.describeTable(r -> r.tableName("missing")))
                .isInstanceOfSatisfying(ResourceNotFoundException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ResourceNotFoundException");
                    assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo("Requested resource not found: Table: missing not found");
                    assertThat(e.requestId()).matches("[A-Z0-9]{52}");
                });
    }

    @Test
    void validationException_reachesSdkAsGenericDynamoDbException() {
        assertThatThrownBy(() -> client.getItem(r -> r.tableName("").key(key("a"))))
                .isExactlyInstanceOf(DynamoDbException.class)
                .satisfies(e -> {
                    DynamoDbException d = (DynamoDbException) e;
                    assertThat(d.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                    assertThat(d.awsErrorDetails().errorMessage())
                            .isEqualTo(
                                    "1 validation error detected: Value '' at "
                                            + "'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1");
                });
    }

    @Test
    void endpoint_isLoopback() {
        assertThat(server.endpoint().getHost()).isEqualTo("127.0.0.1");
        assertThat(server.endpoint()).isEqualTo(URI.create("http://127.0.0.1:" + server.port()));
    }
}
