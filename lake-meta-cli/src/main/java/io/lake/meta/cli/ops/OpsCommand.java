package io.lake.meta.cli.ops;

import io.lake.meta.cli.CommandGroup;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ops show}: the operation journal, read-only. */
@Command(
        name = "ops",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Read the operation journal: one record per operation under ops/<tenant>/<operationId>.",
        subcommands = {OpsShowCommand.class},
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the subcommand succeeded",
            "1-4:as the subcommand says (ops show --help)",
            ExitCodeHelp.GROUP_USAGE
        },
        footerHeading = "%nExamples:%n",
        footer = {"  lake-meta ops show --store rocks:/tmp/meta tenant-1 compact-2026-12-01"})
public final class OpsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw CommandGroup.missingSubcommand(spec);
    }
}
