package io.lake.meta.cli.store;

import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

/**
 * How long the command lets one DynamoDB request take, the SDK's retries and their backoff
 * included, and how an error says that this budget ended it.
 *
 * <p>The SDK's default retries keep a throttled request going for about a minute; a command
 * should answer sooner. The first request that fails ends the command, so a DynamoDB that
 * throttles or fails every request (or every read) fails the command after about this long.
 */
public final class RequestBudget {

    /** Also in the commands' help and the README: change them together. */
    public static final Duration PER_REQUEST = Duration.ofSeconds(10);

    private RequestBudget() {}

    /** Configures a client to give up on a request, retries included, after {@link #PER_REQUEST}. */
    public static void applyTo(ClientOverrideConfiguration.Builder client) {
        client.apiCallTimeout(PER_REQUEST);
    }

    /** A note for the error message when the budget ended a request; empty otherwise. */
    public static String explain(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof ApiCallTimeoutException) {
                return " (lake-meta gives each DynamoDB request " + PER_REQUEST.toSeconds()
                        + " seconds, retries included; DynamoDB kept throttling, failing or not answering: retry later)";
            }
        }
        return "";
    }
}
