package io.lake.meta.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** A command that only groups subcommands ({@code tables}, {@code maintenance}, {@code ops}). */
public final class CommandGroup {

    private CommandGroup() {}

    /** The usage error of a group run without a subcommand: exit 2, naming the choices. */
    public static ParameterException missingSubcommand(CommandSpec group) {
        return new ParameterException(
                group.commandLine(),
                "missing subcommand: choose one of "
                        + String.join(", ", group.subcommands().keySet()));
    }
}
