package io.lake.meta.cli.tables;

import io.lake.meta.cli.CommandGroup;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tables list|show}: the table registry, read-only. */
@Command(
        name = "tables",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Read the table registry: typed registrations under tbl/<namespace>/<name>.",
        subcommands = {TablesListCommand.class, TablesShowCommand.class},
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the subcommand succeeded",
            "1-4:as the subcommand says (tables list --help, tables show --help)",
            ExitCodeHelp.GROUP_USAGE
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta tables list --store rocks:/tmp/meta --namespace sales",
            "  lake-meta tables show --store rocks:/tmp/meta sales orders --json"
        })
public final class TablesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw CommandGroup.missingSubcommand(spec);
    }
}
