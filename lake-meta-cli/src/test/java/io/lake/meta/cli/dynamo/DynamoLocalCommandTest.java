package io.lake.meta.cli.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.LakeMetaCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

class DynamoLocalCommandTest {

    private static final Pattern ENDPOINT = Pattern.compile("listening at (http://127\\.0\\.0\\.1:(\\d+)) ");

    /** The command running on a background thread, with its captured output and stop handle. */
    private static final class Running {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final DynamoLocalCommand command;
        final CompletableFuture<Integer> exit;

        Running(String... args) {
            CommandLine cli = LakeMetaCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true));
            command = cli.getSubcommands().get("dynamo-local").getCommand();
            exit = new CompletableFuture<>();
            Thread thread = new Thread(
                    () -> {
                        try {
                            exit.complete(cli.execute(args));
                        } catch (Throwable t) {
                            exit.completeExceptionally(t);
                        }
                    },
                    "dynamo-local-under-test");
            thread.setDaemon(true);
            thread.start();
        }

        /** Waits until the command printed its endpoint (or ended), then reads it from stdout. */
        URI printedEndpoint() throws Exception {
            CompletableFuture.anyOf(command.started, exit).get(30, TimeUnit.SECONDS);
            Matcher m = ENDPOINT.matcher(out.toString());
            assertThat(m.find()).as("stdout: %s%nstderr: %s", out, err).isTrue();
            return URI.create(m.group(1));
        }

        int awaitExit() throws Exception {
            return exit.get(30, TimeUnit.SECONDS);
        }
    }

    private static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .build();
    }

    private static void assertRefused(URI endpoint) {
        assertThatThrownBy(() -> {
                    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), endpoint.getPort())) {
                        s.getPort();
                    }
                })
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void servesTheSdkOnAFreePort_untilStopped() throws Exception {
        Running run = new Running("dynamo-local", "--region", "eu-west-1");

        URI endpoint = run.printedEndpoint();
        assertThat(endpoint.getPort()).isPositive();
        assertThat(run.out.toString()).contains("--endpoint-url " + endpoint + " --region eu-west-1");
        try (DynamoDbClient dynamo = client(endpoint)) {
            String arn = dynamo.createTable(b -> b.tableName("tables")
                            .billingMode(BillingMode.PAY_PER_REQUEST)
                            .attributeDefinitions(AttributeDefinition.builder()
                                    .attributeName("pk")
                                    .attributeType(ScalarAttributeType.S)
                                    .build())
                            .keySchema(KeySchemaElement.builder()
                                    .attributeName("pk")
                                    .keyType(KeyType.HASH)
                                    .build()))
                    .tableDescription()
                    .tableArn();
            dynamo.putItem(b -> b.tableName("tables")
                    .item(Map.of("pk", AttributeValue.fromS("k"), "v", AttributeValue.fromN("42"))));
            Map<String, AttributeValue> item = dynamo.getItem(
                            b -> b.tableName("tables").key(Map.of("pk", AttributeValue.fromS("k"))))
                    .item();

            assertThat(arn).startsWith("arn:aws:dynamodb:eu-west-1:");
            assertThat(item).containsEntry("v", AttributeValue.fromN("42"));
        }
        assertThat(run.exit).isNotDone();

        run.command.stop();

        assertThat(run.awaitExit())
                .as("stdout: %s%nstderr: %s", run.out, run.err)
                .isZero();
        assertThat(run.out.toString()).endsWith("DynamoDB test server stopped." + System.lineSeparator());
        assertThat(run.err.toString()).isEmpty();
        assertRefused(endpoint);
        assertThat(Runtime.getRuntime().removeShutdownHook(run.command.shutdownHook))
                .as("the shutdown hook is removed once the command has stopped")
                .isFalse();
    }

    @Test
    void shutdownHook_stopsTheServerAndWaitsForIt() throws Exception {
        Running run = new Running("dynamo-local");
        URI endpoint = run.printedEndpoint();

        Runnable hook = run.command.shutdownHook; // its body, run here as the JVM runs it on Ctrl-C or SIGTERM
        hook.run();

        assertRefused(endpoint); // the hook returns only after the command closed the server
        assertThat(run.awaitExit()).isZero();
    }

    @Test
    void explicitPort_isUsed() throws Exception {
        int free;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = probe.getLocalPort();
        }
        Running run = new Running("dynamo-local", "--port", Integer.toString(free));

        URI endpoint = run.printedEndpoint();
        run.command.stop();

        assertThat(endpoint).isEqualTo(URI.create("http://127.0.0.1:" + free));
        assertThat(run.awaitExit()).isZero();
    }

    @Test
    void portInUse_isAOneLineServerError() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();

            Cli.Run run = Cli.run("dynamo-local", "--port", Integer.toString(port));

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.STORE_ERROR);
            assertThat(run.err())
                    .isEqualTo("lake-meta dynamo-local: cannot listen on 127.0.0.1:" + port
                            + ": the port is in use (or not allowed): choose another --port, or leave it out to pick a free one"
                            + System.lineSeparator());
            assertThat(run.out()).isEmpty();
        }
    }

    @Test
    void portOutOfRange_isAUsageError() {
        Cli.Run run = Cli.run("dynamo-local", "--port", "65536");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .isEqualTo("lake-meta dynamo-local: --port 65536 is not a port: pass 0..65535" + " (0 picks a free one)"
                        + System.lineSeparator());
    }

    @Test
    void badRegion_isAUsageError() {
        Cli.Run run = Cli.run("dynamo-local", "--region", "Not A Region");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("lake-meta dynamo-local: --region 'Not A Region' is not a region name");
    }
}
