package io.lake.meta.testkit.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.ServerHooks;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Starts the in-process DynamoDB test server for a test class, like testcontainers'
 * {@code @Container}: on a free loopback port, with a ready client, and reset before every test.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final DynamoDbServerExtension DYNAMO = DynamoDbServerExtension.create();
 *
 * @Test
 * void registersATable(DynamoDbClient client) {          // or DYNAMO.client()
 *     MetaStore store = DynamoMetaStore.builder().client(client).tableName("t").createTableIfMissing(true).build();
 *     ...
 * }
 * }</pre>
 *
 * <ul>
 *   <li>Before the class's first test: the server starts on 127.0.0.1 (never beyond loopback)
 *       and a {@link DynamoDbClient} is built for it, with the {@link ParkingHttpClient} (so the
 *       contract's race tests can see a writer wait) and static test credentials.</li>
 *   <li>Before every test: the server is {@linkplain DynamoDbTestServer#reset() reset} (no tables,
 *       no faults, zeroed statistics) and its pause hooks removed.</li>
 *   <li>After the class: the client is closed, then the server.</li>
 * </ul>
 *
 * <p>Test, {@code @BeforeEach} and {@code @AfterEach} methods (and constructors) can take a
 * {@link DynamoDbClient} or a {@link DynamoDbTestServer} parameter. Register it in a
 * {@code static} field: the server then lives for the class, {@code @Nested} classes included.
 *
 * <p>A backend factory of the testkit's suites owns its server instead: it {@linkplain #start()
 * starts} one when it is created and {@linkplain #close() closes} it with itself, and pauses the
 * server's commits for the suites' race tests with {@link #pauseCommitsOf(String, RaceHooks)}:
 *
 * <pre>{@code
 * final class InProcessDynamoBackend implements BackendFactory {
 *     private final DynamoDbServerExtension dynamo = DynamoDbServerExtension.create().start();
 *
 *     public MetaStore open(StoreContext context) {
 *         String table = dynamo.uniqueTableName("suite");
 *         MetaStore store = DynamoMetaStore.builder().client(dynamo.client()).tableName(table).createTableIfMissing(true).build();
 *         dynamo.pauseCommitsOf(table, context.raceHooks());
 *         return store;
 *     }
 *
 *     public void close() {
 *         dynamo.close();
 *     }
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 * @since 0.1.0
 */
public final class DynamoDbServerExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, ParameterResolver, AutoCloseable {

    /** The owner of a server started by {@link #start()}: no test class stops it. */
    private static final String STARTED_BY_HAND = "started by hand";

    private static final AtomicLong TABLES = new AtomicLong();

    private @Nullable DynamoDbTestServer server;
    private @Nullable DynamoDbClient client;
    private @Nullable String owner;
    private final List<DynamoDbClient> extraClients = new ArrayList<>();

    private DynamoDbServerExtension() {}

    /** A new extension; the server starts with the first test class that uses it. */
    public static DynamoDbServerExtension create() {
        return new DynamoDbServerExtension();
    }

    /** {@inheritDoc} Starts the server and its client, unless an enclosing class already did. */
    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        if (server == null) {
            startServer();
            owner = context.getUniqueId();
        }
    }

    /**
     * Starts the server and its client now, outside JUnit's lifecycle (for a backend factory that
     * owns them); {@link #close()} stops them. Does nothing when the server runs already.
     *
     * @return this extension
     */
    public synchronized DynamoDbServerExtension start() {
        if (server == null) {
            startServer();
            owner = STARTED_BY_HAND;
        }
        return this;
    }

    /** Closes the clients and the server, whoever started them; does nothing when none runs. */
    @Override
    public synchronized void close() {
        if (server != null) {
            stop();
        }
    }

    /** {@inheritDoc} Resets the server and removes its pause hooks. */
    @Override
    public void beforeEach(ExtensionContext context) {
        DynamoDbTestServer running = running();
        running.reset();
        running.hooks(ServerHooks.NONE);
    }

    /** {@inheritDoc} Closes the clients and the server, in the class that started them. */
    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (server != null && context.getUniqueId().equals(owner)) {
            stop();
        }
    }

    private void startServer() {
        server = DynamoDbTestServer.create().start();
        client = newClient();
    }

    private void stop() {
        try {
            synchronized (extraClients) {
                extraClients.forEach(DynamoDbClient::close);
                extraClients.clear();
            }
            if (client != null) {
                client.close();
            }
        } finally {
            if (server != null) {
                server.close();
            }
            server = null;
            client = null;
            owner = null;
        }
    }

    /** {@inheritDoc} */
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == DynamoDbClient.class || type == DynamoDbTestServer.class;
    }

    /** {@inheritDoc} */
    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == DynamoDbClient.class ? client() : server();
    }

    /**
     * The running server: faults, statistics, hooks, {@code restart()}.
     *
     * @throws IllegalStateException outside the test class's lifetime
     */
    public DynamoDbTestServer server() {
        return running();
    }

    /**
     * The class's client, built with {@link ParkingHttpClient}; the extension closes it.
     *
     * @throws IllegalStateException outside the test class's lifetime
     */
    public synchronized DynamoDbClient client() {
        running();
        return Objects.requireNonNull(client); // started with the server
    }

    /** The server's endpoint, {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return running().endpoint();
    }

    /**
     * Another client for the server, with the parking HTTP client; the extension closes it after
     * the class (close it earlier yourself if you like: closing twice is harmless).
     */
    public DynamoDbClient newClient() {
        DynamoDbTestServer running = running();
        DynamoDbClient created = DynamoDbClient.builder()
                .endpointOverride(running.endpoint())
                .region(Region.of(running.region()))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClientBuilder(ParkingHttpClient.builder())
                .build();
        if (client != null) {
            synchronized (extraClients) {
                extraClients.add(created);
            }
        }
        return created;
    }

    /**
     * A valid table name, starting with {@code hint}, that no other call in this JVM returns.
     *
     * @throws InvalidArgumentException if {@code hint} is null
     */
    public String uniqueTableName(String hint) {
        if (hint == null) {
            throw new InvalidArgumentException("hint must not be null");
        }
        String clean = hint.replaceAll("[^a-zA-Z0-9_.-]", "-");
        return "lm-" + clean.substring(0, Math.min(clean.length(), 40)) + "-" + TABLES.incrementAndGet() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Makes the server call {@code hooks} at {@link RaceHooks#COMMIT_CHECKED} inside every write to
     * {@code table}, after the write's conditions passed and before it is visible, with the
     * server's commit lock held ({@link ServerHooks#WRITE_CHECKED}). That is where a backend factory
     * of a DynamoDB-backed store has the contract's race hooks called. Replaces any hooks installed
     * before; as an extension, the next test starts without any.
     *
     * <pre>{@code
     * public MetaStore open(StoreContext context) {
     *     String table = dynamo.uniqueTableName("suite");
     *     MetaStore store = DynamoMetaStore.builder().client(dynamo.client()).tableName(table).createTableIfMissing(true).build();
     *     dynamo.pauseCommitsOf(table, context.raceHooks());   // after build(): the layout record is not paused
     *     return store;
     * }
     * }</pre>
     *
     * @throws InvalidArgumentException if {@code table} or {@code hooks} is null
     */
    public void pauseCommitsOf(String table, RaceHooks hooks) {
        if (table == null || hooks == null) {
            throw new InvalidArgumentException((table == null ? "table" : "hooks") + " must not be null");
        }
        running().hooks(new ServerHooks() {
            @Override
            public void reached(String point) {}

            @Override
            public void reached(String point, String operation, Set<String> tables) {
                if (ServerHooks.WRITE_CHECKED.equals(point) && tables.contains(table)) {
                    hooks.reached(RaceHooks.COMMIT_CHECKED);
                }
            }
        });
    }

    private synchronized DynamoDbTestServer running() {
        if (server == null) {
            throw new IllegalStateException("the DynamoDB test server runs only while its test class runs: register"
                    + " DynamoDbServerExtension in a static @RegisterExtension field and use it from tests or"
                    + " @BeforeEach/@AfterEach methods, or start() it yourself (and close() it)");
        }
        return server;
    }

    /** {@inheritDoc} */
    @Override
    public synchronized String toString() {
        return "DynamoDbServerExtension[" + (server == null ? "not running" : server.endpoint()) + "]";
    }
}
