package io.lake.meta.testkit.dynamo;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.utils.AttributeMap;

/**
 * A sync HTTP client for running the contract's race tests on a DynamoDB store in-process: its
 * calls run on an I/O thread while the calling thread waits on a future, as it does with
 * sync-over-async clients. The race tests recognise a writer that waits for a held commit by its
 * thread being parked; a thread blocked in a socket read is reported as RUNNABLE, so with a plain
 * blocking client (URL-connection, Apache) the suite cannot tell "waiting for the server's commit
 * lock" from "spinning" and fails after its timeout. Nothing else changes: the same requests, the
 * same bytes, the SDK's own retries.
 *
 * <pre>{@code
 * DynamoDbClient client = DynamoDbClient.builder()
 *         .endpointOverride(server.endpoint())
 *         .httpClient(ParkingHttpClient.create())
 *         ...
 * }</pre>
 *
 * <p>{@link DynamoDbServerExtension} builds its clients with it. Only for tests: every call costs
 * a thread hand-off and the whole response body is buffered. Thread-safe; {@link #close()} closes
 * the URL-connection client inside and stops the I/O threads.
 *
 * @since 0.1.0
 */
public final class ParkingHttpClient implements SdkHttpClient {

    private final SdkHttpClient delegate = UrlConnectionHttpClient.create();
    private final ExecutorService io;

    /** A new parking client over a new URL-connection client; the caller closes it. */
    public static ParkingHttpClient create() {
        return new ParkingHttpClient();
    }

    /**
     * A builder to hand to {@code DynamoDbClientBuilder.httpClientBuilder(...)}: the SDK client
     * then owns the parking client and closes it when it is closed (one passed to
     * {@code httpClient(...)} stays the caller's to close).
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds parking clients for the SDK, which closes what it built. */
    public static final class Builder implements SdkHttpClient.Builder<Builder> {

        private Builder() {}

        /** {@inheritDoc} */
        @Override
        public SdkHttpClient buildWithDefaults(AttributeMap serviceDefaults) {
            return new ParkingHttpClient();
        }
    }

    private ParkingHttpClient() {
        AtomicInteger n = new AtomicInteger();
        this.io = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "parking-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** {@inheritDoc} */
    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        ExecutableHttpRequest call = delegate.prepareRequest(request);
        return new ExecutableHttpRequest() {
            private volatile @Nullable Future<HttpExecuteResponse> running;

            @Override
            public HttpExecuteResponse call() throws IOException {
                running = io.submit(() -> buffered(call.call()));
                try {
                    return running.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    running.cancel(true);
                    throw new InterruptedIOException("interrupted while waiting for the response");
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException) {
                        throw (IOException) e.getCause();
                    }
                    throw new IOException(e.getCause());
                }
            }

            @Override
            public void abort() {
                call.abort();
                if (running != null) {
                    running.cancel(true);
                }
            }
        };
    }

    /** Reads the body on the I/O thread too, so the caller never blocks in a socket read. */
    private static HttpExecuteResponse buffered(HttpExecuteResponse response) throws IOException {
        if (response.responseBody().isEmpty()) {
            return response;
        }
        byte[] body;
        try (AbortableInputStream in = response.responseBody().get()) {
            body = in.readAllBytes();
        }
        return HttpExecuteResponse.builder()
                .response(response.httpResponse())
                .responseBody(AbortableInputStream.create(new java.io.ByteArrayInputStream(body)))
                .build();
    }

    /** {@inheritDoc} */
    @Override
    public String clientName() {
        return "ParkingUrlConnection";
    }

    /** Closes the URL-connection client inside and stops the I/O threads. Idempotent. */
    @Override
    public void close() {
        delegate.close();
        io.shutdownNow();
    }
}
