package io.lake.meta.testkit.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A loopback TCP proxy in front of the PostgreSQL server that cuts a connection at a chosen point
 * of the protocol: when the client sends a message whose bytes contain a marker (the text of a
 * statement, such as {@code COMMIT}). What happens then is the {@link Cut}:
 *
 * <ul>
 *   <li>{@link Cut#BEFORE_SERVER}: the client's bytes are dropped and both sides closed: the server
 *       never sees the statement.</li>
 *   <li>{@link Cut#AFTER_SERVER_ANSWERED}: the client's bytes go to the server, and the server's
 *       answer is held back; once the server has answered (so it has executed the statement), both
 *       sides are closed. The client never hears the answer.</li>
 * </ul>
 *
 * After a cut, new connections can be refused too ({@link #refuseNewConnectionsAfterCut}). Binds
 * 127.0.0.1 only; one thread per direction of each connection; {@link #close()} ends everything.
 *
 * @since 0.1.0
 */
public final class CuttingProxy implements AutoCloseable {

    /** Where the connection is cut. */
    public enum Cut {
        /** The client's message never reaches the server. */
        BEFORE_SERVER,
        /** The server executes the message and answers; the client never hears the answer. */
        AFTER_SERVER_ANSWERED,
        /**
         * The client's message never reaches the server and the client's side is closed, but the
         * server's side stays open and silent, as in a network partition: the server's session
         * lives on, idle in its transaction, until something ends it.
         */
        PARTITION_BEFORE_SERVER,
        /**
         * The client's message reaches the server, which executes it and answers; the answer is
         * dropped and the client's side closed, while the server's side stays open and silent, as
         * in a network partition that begins mid-statement: the server's session lives on with
         * whatever the statement left it holding (locks of an open transaction, say).
         *
         * @since 0.1.0
         */
        PARTITION_AFTER_SERVER_ANSWERED
    }

    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final CountDownLatch cutDone = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicInteger cuts = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong roundTrips = new java.util.concurrent.atomic.AtomicLong();
    private volatile byte @Nullable [] marker;
    private volatile @Nullable Cut cut;
    private volatile boolean refuseNew;
    private volatile boolean refuseAfterCut;
    private volatile boolean closed;

    /** Listens on a free loopback port and forwards every connection to {@code upstreamHost:upstreamPort}. */
    public CuttingProxy(String upstreamHost, int upstreamPort) throws IOException {
        this.upstream = new InetSocketAddress(upstreamHost, upstreamPort);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "cutting-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The loopback port clients connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    /** Arms the proxy: the next client message containing {@code statementText} is cut as {@code how}. */
    public void cutWhenClientSends(String statementText, Cut how) {
        this.cut = how;
        this.marker = statementText.getBytes(StandardCharsets.UTF_8);
    }

    /** From the armed cut on, connections are accepted and closed at once: the server is out of reach. */
    public void refuseNewConnectionsAfterCut() {
        refuseAfterCut = true;
    }

    /**
     * How many round trips passed through the proxy: each time a client sends after the server's
     * last answer (or for the first time on a connection), one more. Counted over every connection.
     */
    public long roundTrips() {
        return roundTrips.get();
    }

    /** How many armed cuts happened. */
    public int cuts() {
        return cuts.get();
    }

    private void cutHappened() {
        if (refuseAfterCut) {
            refuseNew = true;
        }
        cuts.incrementAndGet();
        cutDone.countDown();
    }

    /** Waits (bounded) for the armed cut to have happened. */
    public void awaitCut() throws InterruptedException {
        if (!cutDone.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the proxy never saw the armed statement");
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                if (refuseNew) {
                    client.close();
                    continue;
                }
                Socket server = new Socket();
                server.connect(upstream, 10_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                Connection connection = new Connection(client, server);
                start("cutting-proxy-up", connection::pumpUp);
                start("cutting-proxy-down", connection::pumpDown);
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("cutting proxy: " + e);
                }
            }
        }
    }

    private static void start(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** One proxied connection; the up pump watches for the marker, the down pump withholds answers after it. */
    private final class Connection {
        private final Socket client;
        private final Socket server;
        private volatile boolean withholding;
        private volatile boolean partitioned;
        private volatile boolean partitionOnAnswer;
        private volatile boolean serverSpokeLast = true; // the first message of a connection opens a round trip

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void pumpUp() {
            byte[] buffer = new byte[64 * 1024];
            try {
                InputStream in = client.getInputStream(); // not closed on their own: that would close the socket
                OutputStream out = server.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (serverSpokeLast) {
                        serverSpokeLast = false;
                        roundTrips.incrementAndGet();
                    }
                    byte[] armed = marker;
                    if (armed != null && contains(buffer, n, armed)) {
                        marker = null;
                        if (cut == Cut.BEFORE_SERVER) {
                            cutHappened();
                            closeBoth();
                            return;
                        }
                        if (cut == Cut.PARTITION_BEFORE_SERVER) {
                            partitioned = true;
                            cutHappened();
                            quietly(client); // the server's socket stays open until close()
                            return;
                        }
                        if (cut == Cut.PARTITION_AFTER_SERVER_ANSWERED) {
                            partitionOnAnswer = true; // the down pump closes the client's side once the server answers
                        }
                        withholding = true; // the down pump closes both once the server answers
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the connection ended
            } finally {
                if (!withholding && !partitioned && !partitionOnAnswer) {
                    closeBoth();
                }
            }
        }

        void pumpDown() {
            byte[] buffer = new byte[64 * 1024];
            try {
                InputStream in = server.getInputStream();
                OutputStream out = client.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (partitioned) {
                        return; // the server's session stays open, unheard
                    }
                    if (withholding && partitionOnAnswer) { // answered; the client's side dies, the server's lives on
                        partitioned = true;
                        cutHappened();
                        quietly(client);
                        return;
                    }
                    if (withholding) { // the server answered the cut statement: the client never hears it
                        cutHappened();
                        closeBoth();
                        return;
                    }
                    serverSpokeLast = true;
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the connection ended
            } finally {
                if (!partitioned) {
                    closeBoth();
                }
            }
        }

        private void closeBoth() {
            quietly(client);
            quietly(server);
        }
    }

    private static boolean contains(byte[] buffer, int length, byte[] marker) {
        outer:
        for (int i = 0; i + marker.length <= length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (buffer[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void quietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        sockets.forEach(CuttingProxy::quietly);
    }
}
