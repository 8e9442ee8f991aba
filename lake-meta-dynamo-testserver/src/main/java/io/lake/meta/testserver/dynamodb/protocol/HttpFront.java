package io.lake.meta.testserver.dynamodb.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.lake.meta.testserver.dynamodb.engine.Database;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import io.lake.meta.testserver.dynamodb.fault.FaultPlan;
import io.lake.meta.testserver.dynamodb.stats.ServerStatistics;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * The DynamoDB JSON 1.0 wire protocol over the JDK's HTTP server: {@code POST /} with
 * {@code X-Amz-Target: DynamoDB_20120810.<Operation>}; every answer carries
 * {@code x-amzn-RequestId} and {@code x-amz-crc32} (CRC-32 of the exact body bytes, never
 * compressed). SigV4 signatures are not checked: any or no Authorization header is accepted.
 *
 * @since 0.1.0
 */
public final class HttpFront implements HttpHandler {

    public static final String TARGET_PREFIX = "DynamoDB_20120810.";
    static final String CONTENT_TYPE = "application/x-amz-json-1.0";
    static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    private static final Pattern ATTEMPT = Pattern.compile("attempt=(\\d+)");
    /**
     * Jackson's default stream constraints cap a JSON member name at 50 000 characters; DynamoDB
     * attribute names reach 65 535 bytes (and map keys count against the 16 MiB body only), so the
     * parser allows names as long as a whole request.
     */
    private static final ObjectMapper MAPPER = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                    .maxNameLength(MAX_REQUEST_BYTES)
                    .build())
            .build());

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    /** Operations of the real service that this emulator does not implement. */
    private static final Set<String> OTHER_REAL_OPERATIONS = Set.of(
            "BatchExecuteStatement",
            "CreateBackup",
            "CreateGlobalTable",
            "DeleteBackup",
            "DeleteResourcePolicy",
            "DescribeBackup",
            "DescribeContinuousBackups",
            "DescribeContributorInsights",
            "DescribeEndpoints",
            "DescribeExport",
            "DescribeGlobalTable",
            "DescribeGlobalTableSettings",
            "DescribeImport",
            "DescribeKinesisStreamingDestination",
            "DescribeLimits",
            "DescribeTableReplicaAutoScaling",
            "DescribeTimeToLive",
            "DisableKinesisStreamingDestination",
            "EnableKinesisStreamingDestination",
            "ExecuteStatement",
            "ExecuteTransaction",
            "ExportTableToPointInTime",
            "GetResourcePolicy",
            "ImportTable",
            "ListBackups",
            "ListContributorInsights",
            "ListExports",
            "ListGlobalTables",
            "ListImports",
            "ListTagsOfResource",
            "PutResourcePolicy",
            "RestoreTableFromBackup",
            "RestoreTableToPointInTime",
            "TagResource",
            "UntagResource",
            "UpdateContinuousBackups",
            "UpdateContributorInsights",
            "UpdateGlobalTable",
            "UpdateGlobalTableSettings",
            "UpdateKinesisStreamingDestination",
            "UpdateTable",
            "UpdateTableReplicaAutoScaling",
            "UpdateTimeToLive");

    private final Database db;
    private final FaultPlan faults;
    private final ServerStatistics stats;
    private final String region;

    public HttpFront(Database db, FaultPlan faults, ServerStatistics stats, String region) {
        this.db = db;
        this.faults = faults;
        this.stats = stats;
        this.region = region;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String requestId = requestId();
        try {
            String method = exchange.getRequestMethod();
            if (method.equals("GET") && exchange.getRequestURI().getPath().equals("/")) {
                send(
                        exchange,
                        200,
                        ("healthy: dynamodb." + region + ".amazonaws.com ").getBytes(StandardCharsets.UTF_8),
                        requestId,
                        "text/plain");
                return;
            }
            if (!method.equals("POST")) {
                send(
                        exchange,
                        404,
                        "<UnknownOperationException/>".getBytes(StandardCharsets.UTF_8),
                        requestId,
                        "application/xml");
                return;
            }
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                send(exchange, 413, new byte[0], requestId, CONTENT_TYPE);
                return;
            }
            serve(exchange, body, requestId);
        } catch (RuntimeException | Error e) {
            // an emulator bug: answer like DynamoDB's own internal error, naming it
            DynamoException internal = Errors.internalServerError("lake-meta DynamoDB test server failed: " + e);
            sendError(exchange, internal, requestId);
        }
    }

    private void serve(HttpExchange exchange, byte[] raw, String requestId) throws IOException {
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        if (target == null || !target.startsWith(TARGET_PREFIX)) {
            sendError(exchange, Errors.unknownOperation(), requestId);
            return;
        }
        String operation = target.substring(TARGET_PREFIX.length());
        if (!Database.supports(operation)) {
            sendError(
                    exchange,
                    OTHER_REAL_OPERATIONS.contains(operation)
                            ? Errors.unsupported("operation " + operation)
                            : Errors.unknownOperation(),
                    requestId);
            return;
        }
        ObjectNode body;
        try {
            JsonNode parsed = raw.length == 0 ? MAPPER.createObjectNode() : MAPPER.readTree(raw);
            if (parsed == null || !parsed.isObject()) {
                throw Errors.serialization("Start of structure or map expected");
            }
            body = (ObjectNode) parsed;
        } catch (JsonProcessingException e) {
            sendError(exchange, Errors.serialization(null), requestId);
            return;
        } catch (DynamoException e) {
            sendError(exchange, e, requestId);
            return;
        }
        Set<String> tables = Database.tableNames(body);
        for (String table : tables) {
            stats.request(table, operation);
        }
        FaultPlan.Decision decision = faults.decide(operation, tables, attempt(exchange));
        if (!decision.latency().isZero()) {
            try {
                Thread.sleep(decision.latency().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.close();
                return;
            }
        }
        Fault fault = decision.fault();
        if (fault != null) {
            switch (fault.kind()) {
                case PROVISIONED_THROUGHPUT_EXCEEDED:
                    sendError(exchange, Errors.provisionedThroughputExceeded(), requestId);
                    return;
                case THROTTLING:
                    sendError(exchange, Errors.throttling(), requestId);
                    return;
                case TRANSACTION_CONFLICT:
                    sendError(
                            exchange,
                            Database.transactionConflict(operation, body, fault.conflictingAction()),
                            requestId);
                    return;
                case INTERNAL_SERVER_ERROR:
                    sendError(exchange, Errors.internalServerError(), requestId);
                    return;
                case SERVICE_UNAVAILABLE:
                    sendError(exchange, Errors.serviceUnavailable(), requestId);
                    return;
                case CANCELLATION:
                    // a cancellation fault always has its reason code
                    sendError(
                            exchange,
                            Database.injectedCancellation(
                                    body, fault.conflictingAction(), Objects.requireNonNull(fault.reasonCode())),
                            requestId);
                    return;
                case DROP_CONNECTION:
                    drop(exchange);
                    return;
                default:
                    break;
            }
        }
        ObjectNode unprocessed = null;
        if (fault != null && fault.kind() == Fault.Kind.UNPROCESSED) {
            unprocessed = Unprocessed.split(operation, body, fault.conflictingAction());
        }
        ObjectNode result;
        try {
            result = unprocessed != null && Unprocessed.isEmptyBatch(body)
                    ? Unprocessed.emptyResult(operation)
                    : db.execute(operation, body);
            if (unprocessed != null) {
                result.set(operation.equals("BatchWriteItem") ? "UnprocessedItems" : "UnprocessedKeys", unprocessed);
            }
        } catch (DynamoException e) {
            if (fault != null && fault.kind() == Fault.Kind.APPLY_THEN_DROP_RESPONSE) {
                drop(exchange);
            } else if (fault != null && fault.kind() == Fault.Kind.APPLY_THEN_INTERNAL_SERVER_ERROR) {
                sendError(exchange, Errors.internalServerError(), requestId);
            } else {
                sendError(exchange, e, requestId);
            }
            return;
        }
        if (fault != null && fault.kind() == Fault.Kind.APPLY_THEN_DROP_RESPONSE) {
            drop(exchange);
            return;
        }
        if (fault != null && fault.kind() == Fault.Kind.APPLY_THEN_INTERNAL_SERVER_ERROR) {
            sendError(exchange, Errors.internalServerError(), requestId);
            return;
        }
        send(exchange, 200, MAPPER.writeValueAsBytes(result), requestId, CONTENT_TYPE);
    }

    /** Closes the connection without sending a status line: the client sees a lost response. */
    private static void drop(HttpExchange exchange) {
        exchange.close();
    }

    private static int attempt(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("amz-sdk-request");
        if (header != null) {
            Matcher m = ATTEMPT.matcher(header);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return 1;
    }

    private static byte @Nullable [] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_REQUEST_BYTES + 1);
        return body.length > MAX_REQUEST_BYTES ? null : body;
    }

    private static void sendError(HttpExchange exchange, DynamoException e, String requestId) throws IOException {
        send(exchange, e.status(), MAPPER.writeValueAsBytes(e.body()), requestId, CONTENT_TYPE);
    }

    private static void send(HttpExchange exchange, int status, byte[] body, String requestId, String contentType)
            throws IOException {
        CRC32 crc = new CRC32();
        crc.update(body);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("x-amzn-RequestId", requestId);
        exchange.getResponseHeaders().set("x-amz-crc32", Long.toString(crc.getValue()));
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** 52 upper-case alphanumerics, like real request ids. */
    static String requestId() {
        char[] id = new char[52];
        for (int i = 0; i < id.length; i++) {
            id[i] = ID_CHARS[RANDOM.nextInt(ID_CHARS.length)];
        }
        return new String(id);
    }
}
