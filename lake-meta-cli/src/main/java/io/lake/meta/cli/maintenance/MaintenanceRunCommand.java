package io.lake.meta.cli.maintenance;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.RecipeStoreCommand;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.cli.tables.RegistrationView;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableRegistration;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code maintenance run --once [--page-size N] [--interval D]}: one report-only sweeper tick. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Run one maintenance sweeper tick over the table registry and report what it would do.",
            "The tick reads one registry page (the first: a sweeper keeps its position in memory only) and "
                    + "one point read per table. It writes nothing and takes no lock: maintaining a table and cleaning "
                    + "up a dropped one are your service's code (a TableMaintainer), which this command does not have. "
                    + "It prints 'maintain TABLE (...)' for each live table a maintainer would be handed, 'clean up "
                    + "TABLE (...)' for each tombstone whose cleanup waits for your sweeper, then the tick's "
                    + "statistics.",
            "Limits: --page-size beats LAKE_META_MAINTENANCE_PAGE_SIZE, which beats 100; --interval beats "
                    + "LAKE_META_MAINTENANCE_INTERVAL, which beats 60s. Both are checked before the store is opened; "
                    + "the interval is reported, and used by a scheduled sweeper."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the tick ran and was reported; nothing was written",
            "2:bad input: --once missing, a page size or interval (option or environment variable) zero, negative, malformed or over 10000, a missing store; nothing was read",
            "4:store error, or a key under tbl/ that holds no registration this version reads (the message names the key)",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta maintenance run --store rocks:/tmp/meta --once",
            "  LAKE_META_MAINTENANCE_PAGE_SIZE=20 lake-meta maintenance run --store \\",
            "      rocks:/tmp/meta --once --json",
            "  lake-meta maintenance run --store dynamo:meta --once --page-size 50 \\",
            "      --interval 5m"
        })
final class MaintenanceRunCommand extends RecipeStoreCommand {

    @Option(
            names = "--once",
            required = true,
            description = "Run one tick, then exit (required: a continuous sweeper runs in your service, where"
                    + " MaintenanceSweeper.scheduleOn ticks every interval).")
    boolean once;

    @Option(
            names = "--" + MaintenanceLimits.PAGE_SIZE_OPTION,
            paramLabel = "N",
            description = "Registrations the tick reads, 1 to 10000 (default: $" + MaintenanceLimits.PAGE_SIZE_ENV
                    + ", else 100).")
    @Nullable
    String pageSize;

    @Option(
            names = "--" + MaintenanceLimits.INTERVAL_OPTION,
            paramLabel = "D",
            description = "Time between ticks: 500ms, 30s, 5m, 2h, 1d or PT30S (default: $"
                    + MaintenanceLimits.INTERVAL_ENV + ", else 60s).")
    @Nullable
    String interval;

    @Override
    public Integer call() {
        MaintenanceLimits limits = MaintenanceLimits.fromSettings(System.getenv(), givenOptions());
        ReportOnlyTick.Report report = withStore(store -> ReportOnlyTick.run(store, limits));
        PrintWriter out = out();
        if (json) {
            out.println(Json.write(json(report)));
        } else {
            text(report, out);
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The options given on the command line, by the names {@link MaintenanceLimits#fromSettings} reads. */
    private Map<String, String> givenOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        if (pageSize != null) {
            options.put(MaintenanceLimits.PAGE_SIZE_OPTION, pageSize);
        }
        if (interval != null) {
            options.put(MaintenanceLimits.INTERVAL_OPTION, interval);
        }
        return options;
    }

    private static void text(ReportOnlyTick.Report report, PrintWriter out) {
        out.println("report only: nothing is written and no lock is taken (page size "
                + report.limits().pageSize() + ", interval " + report.limits().interval() + ")");
        for (TableRegistration r : report.toMaintain()) {
            out.println("maintain " + r.id() + " (generation " + r.generation() + ", " + r.format() + ", "
                    + r.location() + ")");
        }
        for (TableRegistration r : report.toCleanUp()) {
            out.println("clean up " + r.id() + " (" + r.state().wireName() + ", generation " + r.generation() + ", "
                    + r.location() + "): waits for your sweeper's cleanup");
        }
        TickStatistics s = report.statistics();
        out.println("tick: scanned " + s.scanned() + ", maintain "
                + report.toMaintain().size() + ", clean up "
                + report.toCleanUp().size() + ", gone " + report.gone() + ", wrapped " + (s.wrapped() ? "yes" : "no"));
        out.println(
                s.wrapped()
                        ? "the page was the registry's last: the next tick starts again at the first page"
                        : "more pages follow: a sweeper's next tick reads the next page; this command reads only the first");
        if (s.scanned() == 0 && !s.wrapped()) {
            out.println("the first page was empty but not the last: the store pages by Scan (DynamoDB mode V1)");
        }
    }

    private static Map<String, Object> json(ReportOnlyTick.Report report) {
        TickStatistics s = report.statistics();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("reportOnly", true);
        json.put("pageSize", report.limits().pageSize());
        json.put("interval", report.limits().interval().toString());
        json.put("scanned", s.scanned());
        json.put("maintain", registrations(report.toMaintain()));
        json.put("cleanUp", registrations(report.toCleanUp()));
        json.put("gone", report.gone());
        json.put("wrapped", s.wrapped());
        return json;
    }

    private static List<Map<String, Object>> registrations(List<TableRegistration> list) {
        List<Map<String, Object>> json = new ArrayList<>();
        list.forEach(r -> json.add(RegistrationView.json(r)));
        return json;
    }
}
