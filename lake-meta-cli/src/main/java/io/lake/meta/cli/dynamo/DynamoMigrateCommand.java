package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.dynamo.DynamoMigration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code lake-meta dynamo-migrate ACTION}: drives the online migration of a legacy v1 table to the
 * v2 layout ({@link DynamoMigration}) while every writer runs in mode DUAL, one subcommand per
 * action. Every option can come from an environment variable (for a Kubernetes Job); credentials
 * only through the AWS SDK's default chain, never printed. See {@code docs/guides/dynamodb-migration.md}.
 *
 * <p>The flag form of earlier releases ({@code dynamo-migrate --finalize ...}, or no action for a
 * backfill) is kept for one release: this command takes its options, hidden, warns on stderr, and
 * runs the action it names with the other options given, so its stdout and exit codes are the
 * action's.
 */
@Command(
        name = "dynamo-migrate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        subcommands = {
            MigrateStatusCommand.class,
            MigrateBackfillCommand.class,
            MigrateFinalizeCommand.class,
            MigrateRollbackCommand.class,
            MigrateReleaseBarrierCommand.class,
            MigrateDeclareHorizonCommand.class
        },
        description = {
            "Migrate a legacy lake-meta DynamoDB table (v1: hash key = the whole key) to the sharded v2 layout online,"
                    + " while every writer runs in mode DUAL.",
            "First backfill (bounded pages from a durable cursor, as often as needed), then finalize (a write"
                    + " barrier, a verification of both tables both ways, the completion marker), once every store was"
                    + " restarted declare-horizon; status at any time, rollback until the horizon, release-barrier after"
                    + " a finalize that stopped.",
            "Every option also reads an environment variable LAKE_META_MIGRATE_<OPTION> (such as"
                    + " LAKE_META_MIGRATE_PAGE_SIZE); flags take true or false there. Credentials come from the AWS"
                    + " SDK's default chain only.",
            "A progress bar (items, pages, rate, ETA) goes to stderr; with --json, stdout holds exactly one JSON summary.",
            "Deprecated, for this release only: the flag form (--status, --finalize, --rollback, --release-barrier,"
                    + " --declare-rollback-horizon, or LAKE_META_MIGRATE_FINALIZE=true and the like) and no action at"
                    + " all (a backfill) still run the action they name, with a warning on stderr."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:done: the action succeeded (each action's help says what that is)",
            "2:invalid usage: no action, a missing or invalid option, a missing acknowledgement, the same table twice, a missing table or one of another layout, a rollback after the horizon, a horizon before finalization; nothing was done",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling, or a write's outcome unknown; safe to run again (a page is replayed until its cursor is stored)",
            "5:verification failed: the tables differ (the keys are listed) or a key's copies diverged; nothing was published or removed",
            "6:barrier held: another finalize is running, or one stopped (see status, release-barrier); or a rollback's barrier was released under it",
            "7:finalize: --max-pages stopped the backfill before the end: run again",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta dynamo-migrate backfill --legacy-table meta-v1 --table meta \\",
            "      --page-size 500",
            "  lake-meta dynamo-migrate status --legacy-table meta-v1 --table meta --json",
            "  lake-meta dynamo-migrate finalize --legacy-table meta-v1 --table meta \\",
            "      --page-size 500 --ack-rollout --ack-write-quiescence",
            "  export LAKE_META_MIGRATE_LEGACY_TABLE=meta-v1 LAKE_META_MIGRATE_TABLE=meta",
            "  LAKE_META_MIGRATE_PAGE_SIZE=500 lake-meta dynamo-migrate backfill \\",
            "      --max-pages 10"
        })
public final class DynamoMigrateCommand implements Callable<Integer> {

    static final int DONE = 0;
    static final int USAGE = ExitCodes.USAGE;
    static final int UNAVAILABLE = ExitCodes.STORE_ERROR;
    static final int VERIFICATION_FAILED = 5;
    static final int BARRIER_HELD = 6;
    static final int BACKFILL_INCOMPLETE = 7;

    /** An action flag of the flag form: the action it names, and the environment variable that sets it too. */
    private record ActionFlag(String flag, String action, String variable) {}

    private static final List<ActionFlag> ACTION_FLAGS = List.of(
            new ActionFlag("--status", "status", "LAKE_META_MIGRATE_STATUS"),
            new ActionFlag("--release-barrier", "release-barrier", "LAKE_META_MIGRATE_RELEASE_BARRIER"),
            new ActionFlag("--rollback", "rollback", "LAKE_META_MIGRATE_ROLLBACK"),
            new ActionFlag(
                    "--declare-rollback-horizon", "declare-horizon", "LAKE_META_MIGRATE_DECLARE_ROLLBACK_HORIZON"),
            new ActionFlag("--finalize", "finalize", "LAKE_META_MIGRATE_FINALIZE"));

    @Spec
    CommandSpec spec;

    /** Set while the flag form runs its action: the options given before it are then the action's. */
    private boolean runningTheFlagForm;

    // The flag form, deprecated: its action flags (also from the environment, as before) and every
    // other option, which goes to the action as it was given. Hidden from the help.

    @Option(names = "--status", hidden = true, defaultValue = "${env:LAKE_META_MIGRATE_STATUS:-false}")
    boolean status;

    @Option(names = "--finalize", hidden = true, defaultValue = "${env:LAKE_META_MIGRATE_FINALIZE:-false}")
    boolean finalizeMigration;

    @Option(names = "--rollback", hidden = true, defaultValue = "${env:LAKE_META_MIGRATE_ROLLBACK:-false}")
    boolean rollback;

    @Option(
            names = "--release-barrier",
            hidden = true,
            defaultValue = "${env:LAKE_META_MIGRATE_RELEASE_BARRIER:-false}")
    boolean releaseBarrier;

    @Option(
            names = "--declare-rollback-horizon",
            hidden = true,
            defaultValue = "${env:LAKE_META_MIGRATE_DECLARE_ROLLBACK_HORIZON:-false}")
    boolean declareHorizon;

    @Option(names = "--legacy-table", hidden = true)
    String legacyTable;

    @Option(names = "--table", hidden = true)
    String table;

    @Option(names = "--endpoint", hidden = true)
    String endpoint;

    @Option(names = "--region", hidden = true)
    String region;

    @Option(names = "--shards", hidden = true)
    String shards;

    @Option(names = "--page-size", hidden = true)
    String pageSize;

    @Option(names = "--max-pages", hidden = true)
    String maxPages;

    @Option(names = "--ack-rollout", hidden = true)
    boolean ackRollout;

    @Option(names = "--ack-write-quiescence", hidden = true)
    boolean ackWriteQuiescence;

    @Option(names = "--ack-stores-restarted", hidden = true)
    boolean ackStoresRestarted;

    @Option(names = "--json", hidden = true)
    boolean json;

    /**
     * The flag form: runs the action its flags name (none: a backfill) with the other options given,
     * after a one-line warning on stderr. The action's picocli model enforces which options it takes.
     */
    @Override
    public Integer call() {
        ParseResult given = spec.commandLine().getParseResult();
        List<ActionFlag> set = ACTION_FLAGS.stream()
                .filter(flag -> Boolean.TRUE.equals(spec.findOption(flag.flag()).getValue()))
                .toList();
        List<String> named = set.stream()
                .map(flag -> given.hasMatchedOption(flag.flag()) ? flag.flag() : flag.variable() + "=true")
                .toList();
        if (set.size() > 1) {
            throw new UsageException(String.join(" and ", named) + " name two actions: run one, such as"
                    + " lake-meta dynamo-migrate finalize (the action flags are deprecated)");
        }
        String action = set.isEmpty() ? "backfill" : set.get(0).action();
        ErrorHandler.printError(
                spec.commandLine(),
                "warning: " + (set.isEmpty() ? "dynamo-migrate without an action" : named.get(0))
                        + " is deprecated and goes in the next release: write lake-meta dynamo-migrate "
                        + action + " with the same options");
        List<String> args = new ArrayList<>();
        for (OptionSpec option : given.matchedOptions()) {
            if (ACTION_FLAGS.stream().anyMatch(flag -> flag.flag().equals(option.longestName()))) {
                continue;
            }
            if (option.arity().max() == 0) {
                if (Boolean.TRUE.equals(option.getValue())) {
                    args.add(option.longestName());
                }
            } else {
                for (String value : option.originalStringValues()) {
                    args.add(option.longestName());
                    args.add(value);
                }
            }
        }
        CommandLine actionLine = Objects.requireNonNull(spec.subcommands().get(action), action); // one per action
        // the arguments were checked against the process's argv bytes before this ran: the action's
        // own, rebuilt from them, are run as they are
        actionLine.setExecutionStrategy(new CommandLine.RunLast());
        runningTheFlagForm = true;
        try {
            return actionLine.execute(args.toArray(String[]::new));
        } finally {
            runningTheFlagForm = false;
        }
    }

    /**
     * An action run as {@code dynamo-migrate OPTIONS ACTION}: the options went to this command,
     * not to the action, which would run without them. Refused, before anything is done.
     */
    void refuseOptionsBefore(String action) {
        if (runningTheFlagForm) {
            return;
        }
        List<String> before = spec.commandLine().getParseResult().matchedOptions().stream()
                .map(OptionSpec::longestName)
                .toList();
        if (!before.isEmpty()) {
            throw new UsageException(String.join(", ", before) + " before the action: give the options after it, as"
                    + " in lake-meta dynamo-migrate " + action + " " + before.get(0) + " ...; nothing was done");
        }
    }
}
