package io.lake.meta.cli;

/** A store could not be opened; reported on one line with exit code {@link ExitCodes#STORE_ERROR}. */
public final class StoreOpenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreOpenException(String message, Throwable cause) {
        super(message, cause);
    }
}
