package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.MigrationStatus;
import java.util.Optional;
import picocli.CommandLine.Command;

/** {@code dynamo-migrate release-barrier}: removes a write barrier whose finalize stopped. */
@Command(
        name = "release-barrier",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Release a write barrier left by a finalize or a rollback that stopped: check with status first that"
                    + " none runs."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the barrier was released, or none was held",
            "2:invalid usage: a missing or invalid option, the same table twice, a missing table or one of another layout",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {"  lake-meta dynamo-migrate release-barrier --legacy-table meta-v1 --table meta"})
final class MigrateReleaseBarrierCommand extends MigrationAction {

    @Override
    String summaryName() {
        return "release-barrier";
    }

    @Override
    int run(DynamoMigration migration, MigrationSummary summary) {
        Optional<MigrationStatus.Barrier> released = migration.releaseBarrier();
        return done(summary.barrier(released), released.isPresent() ? "barrier-released" : "no-barrier");
    }
}
