package io.lake.meta.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ops show}: the operation journal, read-only. */
@Command(name = "ops", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Read the operation journal: one record per operation under ops/<tenant>/<operationId>.",
        subcommands = {OpsShowCommand.class})
final class OpsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw CommandGroup.missingSubcommand(spec);
    }
}
