package io.lake.meta.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code maintenance run --once}: the paged maintenance sweep, seen from the command line. */
@Command(name = "maintenance", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Paged maintenance over the table registry: one registry page per tick.",
        subcommands = {MaintenanceRunCommand.class})
final class MaintenanceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw CommandGroup.missingSubcommand(spec);
    }
}
