package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The server answers at once on a reused connection, without JVM flags: the connections it
 * accepts have {@code TCP_NODELAY} set. Without it, Nagle's algorithm holds each response body
 * until the client acknowledges the headers, about 40 ms per request on a keep-alive connection.
 * Checked on the socket option of the accepted connection itself (read through the JDK server's
 * internals, opened to this test by surefire's {@code --add-opens}), not by timing.
 */
class TcpNoDelayTest {

    @Test
    void acceptedConnections_haveTcpNoDelay_withoutAnyJvmFlag() throws Exception {
        try (DynamoDbTestServer server = DynamoDbTestServer.create().start();
                Socket socket = new Socket("127.0.0.1", server.port())) {
            // two requests on the same kept-alive connection, as the SDK's clients send them
            for (int i = 0; i < 2; i++) {
                assertThat(healthCheck(socket)).contains("healthy");
            }

            SocketChannel accepted = acceptedChannel(server, socket.getLocalPort());
            assertThat(accepted.getOption(StandardSocketOptions.TCP_NODELAY))
                    .as(
                            "TCP_NODELAY on the connection the server accepted (%s=%s)",
                            DynamoDbTestServer.NODELAY_PROPERTY,
                            System.getProperty(DynamoDbTestServer.NODELAY_PROPERTY))
                    .isTrue();
        }
    }

    /** Sends {@code GET /} on {@code socket} and reads exactly one response, leaving the connection open. */
    private static String healthCheck(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            assertThat(b).as("the server closed the connection mid-response").isNotNegative();
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.US_ASCII);
        assertThat(headers).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("connection: close");
        int length = -1;
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(
                        line.substring("content-length:".length()).trim());
            }
        }
        assertThat(length).as("content-length of the answer").isPositive();
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** The server side of the connection whose client port is {@code clientPort}. */
    private static SocketChannel acceptedChannel(DynamoDbTestServer server, int clientPort) throws Exception {
        HttpServer http = (HttpServer) field(server, "http");
        Object impl = field(http, "server");
        @SuppressWarnings("unchecked")
        Set<Object> connections = (Set<Object>) field(impl, "allConnections");
        List<Object> copy;
        synchronized (connections) {
            copy = new ArrayList<>(connections);
        }
        for (Object connection : copy) {
            SocketChannel channel = (SocketChannel) field(connection, "chan");
            if (((InetSocketAddress) channel.getRemoteAddress()).getPort() == clientPort) {
                return channel;
            }
        }
        throw new AssertionError("no accepted connection from client port " + clientPort + " among " + copy.size());
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(owner);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name + " in " + owner.getClass());
    }
}
