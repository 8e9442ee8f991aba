package io.lake.meta.cli;

import org.jspecify.annotations.Nullable;

/** Bad input the command itself detected; reported on one line with exit code {@link ExitCodes#USAGE}. */
public final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UsageException(@Nullable String message) {
        super(message);
    }
}
