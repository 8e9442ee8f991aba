package io.lake.meta.cli.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStoreException;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.store.DynamoStoreSpec;
import io.lake.meta.cli.store.RequestBudget;
import io.lake.meta.dynamo.CopiesDivergedException;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.DynamoStoreException;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What every {@code dynamo-migrate} action shares: the tables and the connection, {@code --json},
 * every rule that needs no network checked before the first request, the one summary it prints,
 * and the exit code of each error of the migration. Credentials come from the AWS SDK's default
 * chain and are never printed.
 */
abstract class MigrationAction implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ParentCommand
    DynamoMigrateCommand parent;

    @Mixin
    MigrationConnection connection;

    @Option(
            names = "--json",
            defaultValue = "${env:LAKE_META_MIGRATE_JSON:-false}",
            description = "Print exactly one JSON summary on stdout (env LAKE_META_MIGRATE_JSON).")
    boolean json;

    /** The action's name in the summary (the same as the flag form's, so scripts that read it keep working). */
    abstract String summaryName();

    /** Whether a missing v2 table is created: by the actions that copy into it. */
    boolean createsTable() {
        return false;
    }

    /** The action's own rules that need no network (bounds, acknowledgements); checked after the connection's. */
    void validate() {}

    /** Runs the action on the opened migration and answers the exit code; the migration's errors are mapped by the caller. */
    abstract int run(DynamoMigration migration, MigrationSummary summary);

    @Override
    public final Integer call() {
        parent.refuseOptionsBefore(spec.name());
        DynamoStoreSpec where = connection.validate();
        validate();
        MigrationSummary summary = new MigrationSummary(summaryName(), connection.legacyTable, connection.table);
        Region region = DynamoStoreSpec.region(
                where.region(), DefaultAwsRegionProviderChain.builder().build());
        try (DefaultCredentialsProvider credentials =
                DefaultCredentialsProvider.builder().build()) {
            DynamoStoreSpec.requireCredentials(credentials);
            try (DynamoDbClient client = MigrationConnection.client(where, region, credentials)) {
                DynamoMigration migration = connection.open(client, createsTable());
                try {
                    return run(migration, summary);
                } catch (WriteBarrierException e) {
                    return fail(summary, "barrier-held", e.getMessage(), DynamoMigrateCommand.BARRIER_HELD);
                } catch (CopiesDivergedException e) {
                    return fail(summary, "diverged", e.getMessage(), DynamoMigrateCommand.VERIFICATION_FAILED);
                } catch (InvalidArgumentException e) {
                    return fail(summary, "invalid", e.getMessage(), DynamoMigrateCommand.USAGE);
                } catch (DynamoStoreException e) {
                    boolean refusal =
                            !(e.getCause() instanceof SdkException); // the migration's state, not DynamoDB, said no
                    return fail(
                            summary,
                            refusal ? "refused" : "unavailable",
                            e.getMessage(),
                            refusal ? DynamoMigrateCommand.USAGE : DynamoMigrateCommand.UNAVAILABLE);
                } catch (MetaStoreException e) {
                    return fail(
                            summary,
                            "unavailable",
                            e.getMessage() + RequestBudget.explain(e),
                            DynamoMigrateCommand.UNAVAILABLE);
                }
            }
        }
    }

    /** Prints the summary with {@code outcome}; exit 0. */
    int done(MigrationSummary summary, String outcome) {
        summary.outcome(outcome).print(spec.commandLine().getOut(), json);
        return DynamoMigrateCommand.DONE;
    }

    /** Prints the summary with {@code outcome} and the error, and the error on stderr; answers {@code exitCode}. */
    int fail(MigrationSummary summary, String outcome, @Nullable String message, int exitCode) {
        summary.outcome(outcome).error(message).print(spec.commandLine().getOut(), json);
        ErrorHandler.printError(spec.commandLine(), message);
        return exitCode;
    }

    /** {@code --page-size}: present and in range, for the actions that read pages. */
    static void requirePageSize(Integer pageSize) {
        if (pageSize == null) {
            throw new UsageException(
                    "--page-size is required (or LAKE_META_MIGRATE_PAGE_SIZE): the legacy items evaluated"
                            + " per page, 1.." + DynamoMigration.MAX_PAGE_SIZE);
        }
        if (pageSize < 1 || pageSize > DynamoMigration.MAX_PAGE_SIZE) {
            throw new UsageException(
                    "--page-size " + pageSize + " is out of range: use 1.." + DynamoMigration.MAX_PAGE_SIZE);
        }
    }
}
