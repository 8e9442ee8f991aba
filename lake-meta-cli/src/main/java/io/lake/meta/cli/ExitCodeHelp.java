package io.lake.meta.cli;

/**
 * The lines of the "Exit codes" section the commands' help shares, as picocli {@code exitCodeList}
 * entries ({@code "CODE:meaning"}). One place, so the codes every command can end with read the
 * same everywhere; the meanings are {@link ExitCodes}'.
 */
public final class ExitCodeHelp {

    public static final String HEADING = "%nExit codes:%n";

    public static final String BAD_INPUT =
            "2:bad input (usage, an argument that is not UTF-8 text, an invalid key, value,"
                    + " limit or token, an unknown store scheme, a missing store): nothing was read or written";

    public static final String STORE_ERROR =
            "4:store error: the store cannot be opened or is unavailable (DynamoDB: a request"
                    + " still failing after 10 seconds, retries included), or a write's outcome is unknown";

    public static final String INTERNAL_ERROR = "70:internal error (a bug: please report it)";

    public static final String GROUP_USAGE = "2:no subcommand, or an unknown one";

    private ExitCodeHelp() {}
}
