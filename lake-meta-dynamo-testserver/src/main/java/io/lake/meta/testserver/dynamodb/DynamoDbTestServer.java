package io.lake.meta.testserver.dynamodb;

import com.sun.net.httpserver.HttpServer;
import io.lake.meta.testserver.dynamodb.engine.Database;
import io.lake.meta.testserver.dynamodb.fault.FaultPlan;
import io.lake.meta.testserver.dynamodb.protocol.HttpFront;
import io.lake.meta.testserver.dynamodb.stats.ServerStatistics;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * An in-process, DynamoDB-compatible HTTP server for tests and harnesses: no Docker, no native
 * code. Hand {@link #endpoint()} to {@code DynamoDbClient.builder().endpointOverride(...)} with
 * any static credentials and region; signatures are not checked.
 *
 * <p>Lifecycle: {@link #start()} binds 127.0.0.1 (on a free port unless one was configured);
 * {@link #stop()} closes the listener and drops open connections but <b>keeps the tables and
 * items</b>; {@link #start()} again (or {@link #restart()}) listens again on the same port, so
 * clients built earlier keep working. {@link #reset()} drops all state. {@link #close()} stops
 * for good. All methods are thread-safe; the server serves concurrent clients.
 *
 * <p>Tests can arm faults through {@link #faults()}, read per-table counters through
 * {@link #statistics()} and pause writes at {@link ServerHooks#WRITE_CHECKED} through
 * {@link #hooks(ServerHooks)}.
 *
 * <p>Latency: the server runs on the JDK's HTTP server, which writes a response's headers and body
 * separately. Without {@code TCP_NODELAY}, Nagle's algorithm holds the body back until the client
 * acknowledges the headers, which a client on a reused connection delays by up to ~40 ms: every
 * request would take that long. The JDK sets {@code TCP_NODELAY} on the connections it accepts
 * when the system property {@value #NODELAY_PROPERTY} is {@code true}, and reads the property once
 * per JVM, when the JVM's first JDK HTTP server is created. Loading this class sets it to
 * {@code true} unless it is already set (an explicit {@code false} is respected). In a JVM that
 * created a JDK HTTP server before using this class, pass {@code -D}{@value #NODELAY_PROPERTY}{@code =true}
 * instead.
 *
 * @since 0.1.0
 */
public final class DynamoDbTestServer implements Closeable {

    /** The JDK HTTP server's switch for {@code TCP_NODELAY} on accepted connections. */
    public static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

    static {
        // Before any HttpServer.create in this class: the JDK reads it in a static initialiser.
        try {
            if (System.getProperty(NODELAY_PROPERTY) == null) {
                System.setProperty(NODELAY_PROPERTY, "true");
            }
        } catch (SecurityException e) {
            // a security manager forbids it: the server still works, only slower on reused connections
        }
    }

    private enum State {
        NEW,
        RUNNING,
        STOPPED,
        CLOSED
    }

    private final int configuredPort;
    private final String region;
    private final FaultPlan faults = new FaultPlan();
    private final ServerStatistics statistics = new ServerStatistics();
    private final Database database;
    private volatile ServerHooks hooks = ServerHooks.NONE;

    private State state = State.NEW;
    private @Nullable HttpServer http;
    private @Nullable ExecutorService executor;
    private int boundPort;

    private DynamoDbTestServer(Builder builder) {
        this.configuredPort = builder.port;
        this.region = builder.region;
        this.database = new Database(
                builder.clock,
                builder.region,
                "000000000000",
                statistics,
                (point, operation, tables) -> hooks.reached(point, operation, tables),
                builder.tableCreationDelay);
    }

    /** A server on a free loopback port, region {@code us-east-1}, the system clock. Not started. */
    public static DynamoDbTestServer create() {
        return builder().build();
    }

    /** A builder for a server with a chosen port, region, clock or table creation delay. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts listening (again, after {@link #stop()}, on the same port). */
    public synchronized DynamoDbTestServer start() {
        if (state == State.RUNNING) {
            throw new IllegalStateException("the DynamoDB test server is already running at " + endpoint());
        }
        if (state == State.CLOSED) {
            throw new IllegalStateException("the DynamoDB test server was closed; create a new one");
        }
        int port = state == State.STOPPED ? boundPort : configuredPort;
        try {
            http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
        }
        AtomicInteger threads = new AtomicInteger();
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "dynamodb-test-server-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        http.setExecutor(executor);
        http.createContext("/", new HttpFront(database, faults, statistics, region));
        http.start();
        boundPort = http.getAddress().getPort();
        state = State.RUNNING;
        return this;
    }

    /** Stops listening and drops open connections; tables and items are kept. No-op unless running. */
    public synchronized void stop() {
        if (state != State.RUNNING) {
            return;
        }
        Objects.requireNonNull(http).stop(0); // both set by start(), as the state says
        Objects.requireNonNull(executor).shutdownNow();
        state = State.STOPPED;
    }

    /** {@link #stop()} then {@link #start()}: same port, same tables and items. */
    public synchronized DynamoDbTestServer restart() {
        stop();
        return start();
    }

    /** Drops every table, item and remembered ClientRequestToken, disarms faults, zeroes statistics. */
    public void reset() {
        database.clear();
        faults.clear();
        statistics.reset();
    }

    /** The URI to hand to the SDK, such as {@code http://127.0.0.1:49152}. */
    public synchronized URI endpoint() {
        if (state != State.RUNNING) {
            throw new IllegalStateException("the DynamoDB test server is not running (" + state + ")");
        }
        return URI.create("http://127.0.0.1:" + boundPort);
    }

    /** The bound port (kept across stop/start). */
    public synchronized int port() {
        if (state == State.NEW) {
            throw new IllegalStateException("the DynamoDB test server was never started");
        }
        return boundPort;
    }

    /** Whether the server is listening. */
    public synchronized boolean isRunning() {
        return state == State.RUNNING;
    }

    /** The faults to arm; they apply to the next matching requests. */
    public FaultPlan faults() {
        return faults;
    }

    /** Per-table counters of requests, items and capacity. */
    public ServerStatistics statistics() {
        return statistics;
    }

    /** Installs the pause-point hooks ({@link ServerHooks#NONE} to remove them). */
    public void hooks(ServerHooks hooks) {
        this.hooks = Objects.requireNonNull(hooks, "hooks");
    }

    /** The region the server answers for. */
    public String region() {
        return region;
    }

    /** Stops for good. Idempotent. */
    @Override
    public synchronized void close() {
        stop();
        state = State.CLOSED;
    }

    /** Configuration of a {@link DynamoDbTestServer}. */
    public static final class Builder {
        private int port;
        private String region = "us-east-1";
        private Clock clock = Clock.systemUTC();
        private java.time.Duration tableCreationDelay = java.time.Duration.ZERO;

        private Builder() {}

        /**
         * How long a new table stays CREATING (measured on the {@link #clock(Clock) clock}): meanwhile
         * DescribeTable says CREATING, data-plane calls answer ResourceNotFoundException and
         * DeleteTable answers ResourceInUseException. 0 (the default) makes tables ACTIVE at once.
         */
        public Builder tableCreationDelay(java.time.Duration delay) {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("tableCreationDelay must not be negative, was " + delay);
            }
            this.tableCreationDelay = delay;
            return this;
        }

        /** The loopback port to listen on; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0..65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** The region named in table ARNs; {@code us-east-1} by default. */
        public Builder region(String region) {
            this.region = Objects.requireNonNull(region, "region");
            return this;
        }

        /**
         * The clock for table creation times and the 10-minute ClientRequestToken window; tests
         * pass a controllable clock to cross the window without waiting.
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The configured server, not started. */
        public DynamoDbTestServer build() {
            return new DynamoDbTestServer(this);
        }
    }
}
