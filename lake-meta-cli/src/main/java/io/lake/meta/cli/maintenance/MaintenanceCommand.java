package io.lake.meta.cli.maintenance;

import io.lake.meta.cli.CommandGroup;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code maintenance run --once}: the paged maintenance sweep, seen from the command line. */
@Command(
        name = "maintenance",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Paged maintenance over the table registry: one registry page per tick.",
        subcommands = {MaintenanceRunCommand.class},
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the subcommand succeeded",
            ExitCodeHelp.GROUP_USAGE,
            "4:as the subcommand says (maintenance run --help)"
        },
        footerHeading = "%nExamples:%n",
        footer = {"  lake-meta maintenance run --store rocks:/tmp/meta --once"})
public final class MaintenanceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw CommandGroup.missingSubcommand(spec);
    }
}
