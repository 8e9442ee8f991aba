package io.lake.meta.reliability.security;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The child JVM of {@link CredentialLeakTest}: with the parent's fake credentials in its
 * environment and every logger at TRACE, it drives the DynamoDB backend and the CLI through
 * successes and every kind of failure, printing each answer, each error with its causes and stack,
 * and each store's description, so the parent can search all of it for the credentials.
 */
public final class CredentialProbeMain {

    private CredentialProbeMain() {}

    public static void main(String[] args) {
        try (DynamoDbTestServer server = DynamoDbTestServer.create().start()) {
            URI endpoint = server.endpoint();
            try (DynamoDbClient client = DynamoDbClient.builder()
                    .endpointOverride(endpoint)
                    .region(Region.US_EAST_1)
                    .httpClient(UrlConnectionHttpClient.create())
                    .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(2)))
                    .build()) {
                MetaStore store = DynamoMetaStore.builder()
                        .client(client)
                        .tableName("probe")
                        .createTableIfMissing(true)
                        .build();
                System.out.println("store: " + store);
                attempt("create", () -> store.create(MetaKey.of("tbl/k"), MetaValue.utf8("v")));
                attempt("get", () -> store.get(MetaKey.of("tbl/k")));
                server.faults()
                        .arm(Fault.applyThenInternalServerError()
                                .onOperation("PutItem")
                                .always());
                attempt("create under apply-then-500", () -> store.create(MetaKey.of("tbl/k2"), MetaValue.utf8("v")));
                server.faults().clear();
                server.faults().arm(Fault.throttling().always());
                attempt("get under throttling", () -> store.get(MetaKey.of("tbl/k")));
                server.faults().clear();
                attempt(
                        "open a missing table",
                        () -> DynamoMetaStore.builder()
                                .client(client)
                                .tableName("missing")
                                .createTableIfMissing(false)
                                .build());
                store.close();
            }
            try (DynamoDbClient unreachable = DynamoDbClient.builder()
                    .endpointOverride(URI.create("http://127.0.0.1:1"))
                    .region(Region.US_EAST_1)
                    .httpClient(UrlConnectionHttpClient.builder()
                            .connectionTimeout(Duration.ofSeconds(1))
                            .build())
                    .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
                    .build()) {
                attempt(
                        "open on an unreachable endpoint",
                        () -> DynamoMetaStore.builder()
                                .client(unreachable)
                                .tableName("t")
                                .build());
            }
            String url = endpoint.toString();
            cli("put", "--store", "dynamo:probe", "--endpoint", url, "--region", "us-east-1", "tbl/c", "v");
            cli("get", "--store", "dynamo:probe", "--endpoint", url, "--region", "us-east-1", "tbl/c");
            cli("scan", "--store", "dynamo:probe", "--endpoint", url, "--region", "us-east-1", "--prefix", "tbl/");
            cli("get", "--store", "dynamo:missing", "--endpoint", url, "--region", "us-east-1", "tbl/c");
            cli("get", "--store", "dynamo:probe", "--endpoint", "http://127.0.0.1:1", "--region", "us-east-1", "tbl/c");
            server.faults().arm(Fault.internalServerError().always());
            cli("put", "--store", "dynamo:probe", "--endpoint", url, "--region", "us-east-1", "tbl/d", "v");
            server.faults().clear();
        }
        System.out.println("PROBED");
    }

    private static void attempt(String what, Runnable call) {
        try {
            call.run();
            System.out.println(what + ": ok");
        } catch (RuntimeException e) {
            System.out.println(what + ": " + e);
            e.printStackTrace(System.out);
        }
    }

    private static void cli(String... args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int exit = LakeMetaCommand.commandLine(out, err).execute(args);
        System.out.println("cli " + String.join(" ", args) + " -> exit " + exit);
    }
}
