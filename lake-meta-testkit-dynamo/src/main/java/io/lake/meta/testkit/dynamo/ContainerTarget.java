package io.lake.meta.testkit.dynamo;

import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * A DynamoDB in a container, offered to {@link DynamoTestTarget} through {@link java.util.ServiceLoader}.
 * {@code lake-meta-testkit-localstack} provides one (LocalStack through testcontainers); without
 * such a module on the test class path, the target never looks for a container engine, and
 * tests run on an explicit endpoint or the in-process server.
 *
 * @since 0.1.0
 */
public interface ContainerTarget {

    /** Whether a container engine answers now. Must not throw: an engine that cannot be reached answers false. */
    boolean available();

    /**
     * Starts the container and waits until DynamoDB answers.
     *
     * @param env the environment to read settings from (an image override, an auth token)
     * @return the started container; {@link DynamoTestTarget} stops it when the JVM exits
     */
    Started start(Map<String, String> env);

    /**
     * A started container: where DynamoDB listens, and how to stop it.
     *
     * @param endpoint the endpoint to hand to the SDK
     * @param region the region the container answers for
     * @param credentials credentials the container accepts
     * @param description what was started, for the target's one-line report (the image, say)
     * @param stop stops the container
     */
    record Started(
            URI endpoint, Region region, AwsCredentialsProvider credentials, String description, Runnable stop) {}
}
