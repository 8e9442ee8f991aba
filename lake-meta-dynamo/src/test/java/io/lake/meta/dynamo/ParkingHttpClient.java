package io.lake.meta.dynamo;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * A sync HTTP client whose calls run on an I/O thread while the calling thread waits on a
 * future, as it does with sync-over-async clients. The contract suite's race tests recognise a
 * writer that waits for a held commit by its thread being parked; a thread blocked in a socket
 * read is reported as RUNNABLE, so with a plain blocking client the suite could not tell
 * "waiting for the server's commit lock" from "spinning". Nothing else changes: the same
 * requests, the same bytes, the SDK's own retries.
 */
final class ParkingHttpClient implements SdkHttpClient {

    private final SdkHttpClient delegate = UrlConnectionHttpClient.create();
    private final ExecutorService io;

    ParkingHttpClient() {
        AtomicInteger n = new AtomicInteger();
        this.io = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "parking-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        ExecutableHttpRequest call = delegate.prepareRequest(request);
        return new ExecutableHttpRequest() {
            private volatile Future<HttpExecuteResponse> running;

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
        return HttpExecuteResponse.builder().response(response.httpResponse())
                .responseBody(AbortableInputStream.create(new java.io.ByteArrayInputStream(body))).build();
    }

    @Override
    public String clientName() {
        return "ParkingUrlConnection";
    }

    @Override
    public void close() {
        delegate.close();
        io.shutdownNow();
    }
}
