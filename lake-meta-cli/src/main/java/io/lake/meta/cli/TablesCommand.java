package io.lake.meta.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tables list|show}: the table registry, read-only. */
@Command(name = "tables", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Read the table registry: typed registrations under tbl/<namespace>/<name>.",
        subcommands = {TablesListCommand.class, TablesShowCommand.class})
final class TablesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw CommandGroup.missingSubcommand(spec);
    }
}
