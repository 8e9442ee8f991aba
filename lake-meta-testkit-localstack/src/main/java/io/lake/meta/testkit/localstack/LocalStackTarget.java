package io.lake.meta.testkit.localstack;

import io.lake.meta.testkit.dynamo.ContainerTarget;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * LocalStack in a Docker container, through testcontainers: the {@link ContainerTarget} that
 * {@link DynamoTestTarget} uses when this module is on the test class path, no explicit endpoint
 * is set and a Docker engine answers.
 *
 * <ul>
 *   <li>The image is {@value DynamoTestTarget#DEFAULT_LOCALSTACK_IMAGE}, or the one named by
 *       {@value DynamoTestTarget#LOCALSTACK_IMAGE_ENV}.</li>
 *   <li>{@value #AUTH_TOKEN_ENV}, when set and not blank, is passed to the container: recent
 *       LocalStack images refuse to start without it. It is never printed.</li>
 * </ul>
 *
 * <p>Registered as a {@link java.util.ServiceLoader} service; there is nothing to call.
 *
 * @since 0.1.0
 */
public final class LocalStackTarget implements ContainerTarget {

    /** The environment variable holding the LocalStack auth token. */
    public static final String AUTH_TOKEN_ENV = "LOCALSTACK_AUTH_TOKEN";

    /** For {@link java.util.ServiceLoader}. */
    public LocalStackTarget() {}

    /** {@inheritDoc} */
    @Override
    public boolean available() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** {@inheritDoc} */
    @Override
    public Started start(Map<String, String> env) {
        LocalStackContainer container = container(env);
        container.start();
        return new Started(
                container.getEndpoint(),
                Region.of(container.getRegion()),
                StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(container.getAccessKey(), container.getSecretKey())),
                "LocalStack " + image(env) + (containerEnvironment(env).isEmpty() ? ", no " : ", with ")
                        + AUTH_TOKEN_ENV,
                container::stop);
    }

    /** The container {@link #start} starts, configured from {@code env}, not started (creating it needs Docker). */
    private static LocalStackContainer container(Map<String, String> env) {
        LocalStackContainer container =
                new LocalStackContainer(DockerImageName.parse(image(env))).withServices("dynamodb");
        containerEnvironment(env).forEach(container::withEnv);
        return container;
    }

    /** The image to start: {@value DynamoTestTarget#LOCALSTACK_IMAGE_ENV}, else the pinned default. */
    static String image(Map<String, String> env) {
        String image = env.get(DynamoTestTarget.LOCALSTACK_IMAGE_ENV);
        return image == null || image.isBlank() ? DynamoTestTarget.DEFAULT_LOCALSTACK_IMAGE : image.trim();
    }

    /** The variables passed into the container: the auth token when it is set and not blank. */
    static Map<String, String> containerEnvironment(Map<String, String> env) {
        String token = env.get(AUTH_TOKEN_ENV);
        return token == null || token.isBlank() ? Map.of() : Map.of(AUTH_TOKEN_ENV, token.trim());
    }
}
