package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.ServerStartException;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.URI;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dynamo-local [--port P] [--region R]}: the in-process DynamoDB test server, standalone on
 * 127.0.0.1, until interrupted. Ctrl-C or SIGTERM stops it through a shutdown hook.
 */
@Command(
        name = "dynamo-local",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Run the in-process DynamoDB test server standalone on 127.0.0.1 until interrupted (Ctrl-C).",
            "State is kept in memory only; request signatures are not checked, so any credentials work.",
            "Point the AWS CLI at it with --endpoint-url, an SDK with endpointOverride."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:stopped by Ctrl-C or SIGTERM",
            "2:bad input: an invalid port or region",
            "4:the server cannot listen (the port is in use)",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {"  lake-meta dynamo-local", "  lake-meta dynamo-local --port 8000 --region eu-west-1"})
public final class DynamoLocalCommand implements Callable<Integer> {

    private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,64}");

    /** How long the shutdown hook waits for the command to close the server. */
    private static final long HOOK_WAIT_SECONDS = 10;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--port",
            paramLabel = "P",
            defaultValue = "0",
            description = "The port on 127.0.0.1; 0 (the default) picks a free one.")
    int port;

    @Option(
            names = "--region",
            paramLabel = "R",
            defaultValue = "us-east-1",
            description = "The region named in table ARNs (default: ${DEFAULT-VALUE}).")
    String region;

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    /** Completes with the endpoint once it has been printed; tests wait on it. */
    final CompletableFuture<URI> started = new CompletableFuture<>();

    /** The shutdown hook registered while serving; tests run it to play a SIGTERM. */
    final Thread shutdownHook = new Thread(this::stopAndAwait, "lake-meta-dynamo-local-shutdown");

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new UsageException("--port " + port + " is not a port: pass 0..65535 (0 picks a free one)");
        }
        if (!REGION.matcher(region).matches()) {
            throw new UsageException("--region '" + region + "' is not a region name: write one such as us-east-1");
        }
        PrintWriter out = spec.commandLine().getOut();
        DynamoDbTestServer server =
                DynamoDbTestServer.builder().port(port).region(region).build();
        try {
            server.start();
        } catch (UncheckedIOException e) {
            started.completeExceptionally(e);
            throw new ServerStartException(cannotListen(e), e);
        }
        boolean hookRegistered = false;
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            hookRegistered = true;
            URI endpoint = server.endpoint();
            out.println("DynamoDB test server listening at " + endpoint + " (region " + region
                    + "; state in memory; signatures not checked)");
            out.println("Use it with: aws dynamodb list-tables --endpoint-url " + endpoint + " --region " + region
                    + " (any credentials), or an SDK client's endpointOverride(" + endpoint + ")");
            out.println("Ctrl-C stops it; the tables are lost.");
            out.flush();
            started.complete(endpoint);
            stopRequested.await();
        } finally {
            server.close();
            if (hookRegistered && !Thread.currentThread().equals(shutdownHook)) {
                removeHook();
            }
            stopped.countDown();
        }
        out.println("DynamoDB test server stopped.");
        out.flush();
        return ExitCodes.OK;
    }

    /** Asks a running command to stop; {@link #call()} then closes the server and returns. */
    void stop() {
        stopRequested.countDown();
    }

    /** The shutdown hook: stop, then give {@link #call()} the time to close the server. */
    private void stopAndAwait() {
        stop();
        try {
            stopped.await(HOOK_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already shutting down (Ctrl-C): the hook is running or has run.
        }
    }

    private String cannotListen(UncheckedIOException e) {
        String reason = e.getCause() instanceof BindException
                ? "the port is in use (or not allowed)"
                : String.valueOf(
                        e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
        return "cannot listen on 127.0.0.1:" + port + ": " + reason
                + ": choose another --port, or leave it out to pick a free one";
    }
}
