package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.dynamo.DynamoMigration;
import picocli.CommandLine.Command;

/** {@code dynamo-migrate status}: where the migration stands. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print where the migration stands: the backfill cursor's totals, the write barrier, the completion marker.",
            "It changes nothing but the record, written once by every action, that the two tables are a migration's:"
                    + " mode V2 then refuses the v2 table until the rollback horizon."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the status was printed",
            "2:invalid usage: a missing or invalid option, the same table twice, a missing table or one of another layout",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta dynamo-migrate status --legacy-table meta-v1 --table meta",
            "  lake-meta dynamo-migrate status --legacy-table meta-v1 --table meta --json"
        })
final class MigrateStatusCommand extends MigrationAction {

    @Override
    String summaryName() {
        return "status";
    }

    @Override
    int run(DynamoMigration migration, MigrationSummary summary) {
        return done(summary.status(migration.status()), "status");
    }
}
