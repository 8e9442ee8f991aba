package io.lake.meta.cli;

/**
 * A server could not start (its port is in use, for example); reported on one line with exit code
 * {@link ExitCodes#STORE_ERROR}.
 */
public final class ServerStartException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ServerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
