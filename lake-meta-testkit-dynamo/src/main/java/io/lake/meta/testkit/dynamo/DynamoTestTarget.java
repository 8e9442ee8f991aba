package io.lake.meta.testkit.dynamo;

import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The one place that decides which DynamoDB the tests use, in this order:
 * <ol>
 *   <li>{@value #ENDPOINT_ENV} when set (LocalStack, real AWS, any compatible server), with
 *       region {@value #REGION_ENV} or {@code AWS_REGION} (default {@code us-east-1}) and
 *       credentials from {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY} (default
 *       {@code test}/{@code test}, as LocalStack accepts);</li>
 *   <li>else a DynamoDB in a container, when a {@link ContainerTarget} is on the class path and
 *       its engine answers: {@code lake-meta-testkit-localstack} adds LocalStack (image
 *       {@value #DEFAULT_LOCALSTACK_IMAGE}, or {@value #LOCALSTACK_IMAGE_ENV}; the auth token
 *       {@code LOCALSTACK_AUTH_TOKEN} passed through when set);</li>
 *   <li>else the in-process {@link DynamoDbTestServer}.</li>
 * </ol>
 * The choice is made once per JVM ({@link #shared()}) and printed. Tests that need the in-process
 * server (fault injection, statistics, pause hooks) call {@link #requireInProcessServer()}, which
 * skips them with a reason on the other targets; every other test runs on every target.
 *
 * <p>Thread-safe. Whatever the target started (a container, a server) is stopped when the JVM exits.
 *
 * @since 0.1.0
 */
public final class DynamoTestTarget {

    /** The environment variable naming an explicit DynamoDB endpoint (LocalStack, real AWS, another emulator). */
    public static final String ENDPOINT_ENV = "LAKE_META_DYNAMO_ENDPOINT";
    /** The environment variable naming the region for {@value #ENDPOINT_ENV}. */
    public static final String REGION_ENV = "LAKE_META_DYNAMO_REGION";
    /** The environment variable overriding the LocalStack image ({@code lake-meta-testkit-localstack}). */
    public static final String LOCALSTACK_IMAGE_ENV = "LAKE_META_LOCALSTACK_IMAGE";
    /** The LocalStack image started when {@value #LOCALSTACK_IMAGE_ENV} is not set. */
    public static final String DEFAULT_LOCALSTACK_IMAGE = "localstack/localstack:4.0";

    /** Which DynamoDB the tests talk to. */
    public enum Kind {
        /** The endpoint named by {@value #ENDPOINT_ENV}. */
        ENDPOINT,
        /** A DynamoDB in a container (LocalStack through testcontainers), from a {@link ContainerTarget}. */
        LOCALSTACK,
        /** The in-process, Docker-free {@link DynamoDbTestServer}. */
        IN_PROCESS
    }

    private static @Nullable DynamoTestTarget shared;
    private static final AtomicLong TABLES = new AtomicLong();

    private final Kind kind;
    private final URI endpoint;
    private final Region region;
    private final AwsCredentialsProvider credentials;
    private final @Nullable DynamoDbTestServer server;
    private final String reason;

    private DynamoTestTarget(
            Kind kind,
            URI endpoint,
            Region region,
            AwsCredentialsProvider credentials,
            @Nullable DynamoDbTestServer server,
            String reason) {
        this.kind = kind;
        this.endpoint = endpoint;
        this.region = region;
        this.credentials = credentials;
        this.server = server;
        this.reason = reason;
    }

    /** The target for this JVM: chosen, started and printed on first use. */
    public static synchronized DynamoTestTarget shared() {
        if (shared == null) {
            Optional<ContainerTarget> container =
                    ServiceLoader.load(ContainerTarget.class).findFirst();
            shared = start(
                    System.getenv(),
                    () -> container.map(ContainerTarget::available).orElse(false),
                    container.orElse(null));
            System.out.println("[lake-meta] DynamoDB test target: " + shared);
        }
        return shared;
    }

    /** Which target the environment selects; starts nothing. */
    static Kind decide(Map<String, String> env, BooleanSupplier dockerAnswers) {
        if (!blank(env.get(ENDPOINT_ENV))) {
            return Kind.ENDPOINT;
        }
        return dockerAnswers.getAsBoolean() ? Kind.LOCALSTACK : Kind.IN_PROCESS;
    }

    static DynamoTestTarget start(Map<String, String> env, BooleanSupplier dockerAnswers) {
        return start(env, dockerAnswers, null);
    }

    static DynamoTestTarget start(
            Map<String, String> env, BooleanSupplier dockerAnswers, @Nullable ContainerTarget container) {
        switch (decide(env, dockerAnswers)) {
            case ENDPOINT:
                // decide() chose the endpoint because the variable is set
                URI endpoint =
                        URI.create(Objects.requireNonNull(env.get(ENDPOINT_ENV)).trim());
                return new DynamoTestTarget(
                        Kind.ENDPOINT, endpoint, region(env), credentials(env), null, ENDPOINT_ENV + " is set");
            case LOCALSTACK:
                return startContainer(Objects.requireNonNull(container, "container"), env);
            default:
                DynamoDbTestServer server = DynamoDbTestServer.create().start();
                Runtime.getRuntime().addShutdownHook(new Thread(server::close, "dynamodb-test-server-stop"));
                return new DynamoTestTarget(
                        Kind.IN_PROCESS,
                        server.endpoint(),
                        Region.of(server.region()),
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")),
                        server,
                        ENDPOINT_ENV + " is not set and no Docker engine answers");
        }
    }

    private static DynamoTestTarget startContainer(ContainerTarget container, Map<String, String> env) {
        ContainerTarget.Started started = container.start(env);
        Runtime.getRuntime().addShutdownHook(new Thread(started.stop(), "dynamodb-container-stop"));
        return new DynamoTestTarget(
                Kind.LOCALSTACK,
                started.endpoint(),
                started.region(),
                started.credentials(),
                null,
                ENDPOINT_ENV + " is not set and a container engine answers (" + started.description() + ")");
    }

    private static Region region(Map<String, String> env) {
        String region = !blank(env.get(REGION_ENV)) ? env.get(REGION_ENV) : env.get("AWS_REGION");
        return Region.of(region == null || region.isBlank() ? "us-east-1" : region.trim());
    }

    private static AwsCredentialsProvider credentials(Map<String, String> env) {
        if (!blank(env.get("AWS_ACCESS_KEY_ID")) && !blank(env.get("AWS_SECRET_ACCESS_KEY"))) {
            return EnvironmentVariableCredentialsProvider.create();
        }
        return StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
    }

    private static boolean blank(@Nullable String s) {
        return s == null || s.isBlank();
    }

    /** Which DynamoDB this is. */
    public Kind kind() {
        return kind;
    }

    /** The endpoint clients are pointed at. */
    public URI endpoint() {
        return endpoint;
    }

    /** The region clients name. */
    public Region region() {
        return region;
    }

    /** Credentials this target accepts. */
    public AwsCredentialsProvider credentials() {
        return credentials;
    }

    /**
     * A new client for this target (URL-connection HTTP client, the SDK's default retries). The
     * caller closes it. For the contract's race tests use {@link #newParkingClient()}.
     */
    public DynamoDbClient newClient() {
        return newClient(b -> {});
    }

    /**
     * A new client for this target with the URL-connection HTTP client, after {@code customizer}
     * adjusted the builder (retries, timeouts, interceptors). The caller closes it. To use another
     * HTTP client, start from {@link #clientBuilder()} instead.
     */
    public DynamoDbClient newClient(Consumer<DynamoDbClientBuilder> customizer) {
        DynamoDbClientBuilder builder = clientBuilder().httpClientBuilder(UrlConnectionHttpClient.builder());
        Objects.requireNonNull(customizer, "customizer").accept(builder);
        return builder.build();
    }

    /**
     * A new client whose HTTP calls park the calling thread while they wait ({@link ParkingHttpClient}):
     * the one the contract's race tests need. The caller closes it.
     */
    public DynamoDbClient newParkingClient() {
        return clientBuilder().httpClientBuilder(ParkingHttpClient.builder()).build();
    }

    /** A client builder pointed at this target (endpoint, region, credentials), with no HTTP client chosen yet. */
    public DynamoDbClientBuilder clientBuilder() {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(region)
                .credentialsProvider(credentials);
    }

    /** The in-process server, when it is the target. */
    public Optional<DynamoDbTestServer> inProcessServer() {
        return Optional.ofNullable(server);
    }

    /**
     * The in-process server; on any other target the calling test is skipped (a JUnit assumption)
     * with a reason, because faults, statistics and pause hooks exist only in-process.
     */
    public DynamoDbTestServer requireInProcessServer() {
        Assumptions.assumeTrue(
                server != null,
                () -> "needs the in-process DynamoDB test server (fault injection,"
                        + " statistics or pause hooks), but the target is " + this);
        return Objects.requireNonNull(server);
    }

    /**
     * Why a commit on this target cannot be held between its condition check and its write, or
     * empty on the in-process server, whose {@code ServerHooks.WRITE_CHECKED} pauses it there. On
     * LocalStack or an explicit endpoint the commit runs in a server the test cannot pause, so a
     * backend's {@code BackendFactory} declares it
     * ({@code Capabilities.all().without(Capability.RACE_HOOKS, reason)}) and the contract's race
     * tests are skipped with the reason.
     */
    public Optional<String> pauseUnsupportedReason() {
        return server != null
                ? Optional.empty()
                : Optional.of("nothing can pause a commit inside the DynamoDB of " + this
                        + "; the race tests need the in-process server's ServerHooks.WRITE_CHECKED");
    }

    /** A table name no other test in this JVM (or a parallel run against the same endpoint) uses. */
    public String uniqueTableName(String hint) {
        String clean = hint.replaceAll("[^a-zA-Z0-9_.-]", "-");
        return "lm-" + clean.substring(0, Math.min(clean.length(), 40)) + "-" + TABLES.incrementAndGet() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    /** {@inheritDoc} */
    @Override
    public String toString() {
        String what = kind == Kind.ENDPOINT
                ? "explicit endpoint"
                : kind == Kind.LOCALSTACK ? "LocalStack" : "in-process server";
        return what + " at " + endpoint + " (region " + region + "; " + reason + ")";
    }
}
