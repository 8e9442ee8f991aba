package io.lake.meta.testserver.dynamodb;

import java.util.concurrent.CountDownLatch;

/**
 * Runs the server standalone: {@code java -jar lake-meta-dynamo-testserver.jar [--port P]}.
 * Prints the endpoint, then serves until the process is stopped.
 *
 * @since 0.1.0
 */
public final class DynamoDbTestServerMain {

    private DynamoDbTestServerMain() {}

    /** Serves on 127.0.0.1 until the process is stopped; {@code --port P} (default 8000, 0 for a free one). */
    public static void main(String[] args) throws InterruptedException {
        int port = 8000;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--port") && i + 1 < args.length) {
                port = Integer.parseInt(args[++i]);
            } else {
                System.err.println("usage: DynamoDbTestServerMain [--port P]   (default 8000, 0 = any free port)");
                System.exit(2);
            }
        }
        DynamoDbTestServer server =
                DynamoDbTestServer.builder().port(port).build().start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "dynamodb-test-server-shutdown"));
        System.out.println("DynamoDB test server listening at " + server.endpoint()
                + " (state in memory; signatures not checked; Ctrl-C to stop)");
        new CountDownLatch(1).await();
    }
}
