package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.dynamo.DynamoMigration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dynamo-migrate declare-horizon}: the legacy table is no longer kept; irreversible. */
@Command(
        name = "declare-horizon",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "After finalization: declare the rollback horizon passed, the legacy table no longer kept.",
            "Stores in mode DUAL stop writing it, stores in mode V2 may open, and no rollback is possible any more."
                    + " Needs --ack-stores-restarted."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the horizon was declared (or already was)",
            "2:invalid usage: a missing or invalid option, the missing acknowledgement, the same table twice, a missing table or one of another layout, or the migration is not finalized; nothing was done",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling, or a write's outcome unknown",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta dynamo-migrate declare-horizon --legacy-table meta-v1 --table meta \\",
            "      --ack-stores-restarted"
        })
final class MigrateDeclareHorizonCommand extends MigrationAction {

    @Option(
            names = "--ack-stores-restarted",
            defaultValue = "${env:LAKE_META_MIGRATE_ACK_STORES_RESTARTED:-false}",
            description = "You confirm that every store was restarted after finalization, so runs in mode DUAL with the"
                    + " v2 authority, or V2 (env LAKE_META_MIGRATE_ACK_STORES_RESTARTED).")
    boolean ackStoresRestarted;

    /** The flag form's name: scripts that read the summary keep working. */
    @Override
    String summaryName() {
        return "declare-rollback-horizon";
    }

    @Override
    void validate() {
        if (!ackStoresRestarted) {
            throw new UsageException("declare-horizon needs --ack-stores-restarted (every store was restarted after"
                    + " finalization: a store still reading the legacy table would read stale data once stores in mode"
                    + " V2 write); nothing was done");
        }
    }

    @Override
    int run(DynamoMigration migration, MigrationSummary summary) {
        migration.declareRollbackHorizonPassed();
        return done(summary.status(migration.status()), "rollback-horizon-declared");
    }
}
