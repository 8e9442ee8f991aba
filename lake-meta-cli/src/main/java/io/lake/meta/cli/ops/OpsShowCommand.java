package io.lake.meta.cli.ops;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.RecipeStoreCommand;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.ops.OperationId;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationRecord;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ops show TENANT ID}: one operation record. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print one operation's journal record.",
            "One 'field: value' line each: operation, key, state "
                    + "(in_progress, completed, abandoned), digest, owner (holder and epoch), attempt, started at, "
                    + "then ended at and the outcome or reason once it ended. Exits 1 when there is none (never begun, "
                    + "or garbage-collected after the retention). Reads only."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the record was printed",
            "1:no such operation (nothing under ops/TENANT/ID)",
            "2:bad input: an invalid tenant or operation id, a missing store; nothing was read",
            "4:store error, or ops/TENANT/ID holds no operation record this version reads (the message names the key)",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta ops show --store rocks:/tmp/meta tenant-1 compact-2026-12-01",
            "  lake-meta ops show --store rocks:/tmp/meta tenant-1 compact-2026-12-01 --json"
        })
final class OpsShowCommand extends RecipeStoreCommand {

    @Parameters(
            index = "0",
            paramLabel = "TENANT",
            description = "The tenant: 1 to 128 of [A-Za-z0-9_.-], first a letter or digit.")
    String tenant;

    @Parameters(
            index = "1",
            paramLabel = "ID",
            description = "The operation id: 1 to 256 of [A-Za-z0-9_.:-], first a letter or digit.")
    String operationId;

    @Override
    public Integer call() {
        OperationId id = OperationId.of(tenant, operationId); // checked before the store is opened
        Optional<OperationRecord> record = withStore(store -> reader(store).get(id.tenant(), id.operationId()));
        PrintWriter out = out();
        if (json) {
            Map<String, Object> answer = record.map(OperationView::json).orElseGet(() -> OperationView.identity(id));
            answer.put("found", record.isPresent());
            out.println(Json.write(answer));
        } else if (record.isPresent()) {
            OperationView.fields(record.get()).forEach(out::println);
        } else {
            ErrorHandler.printError(spec.commandLine(), "no operation " + id + ": " + id.key() + " is absent");
        }
        out.flush();
        return record.isPresent() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }

    /** A journal that only reads: its authority never leads, so nothing could be begun or ended through it. */
    private static OperationJournal reader(MetaStore store) {
        return OperationJournal.builder()
                .store(store)
                .authority(NeverLeads.INSTANCE)
                .build();
    }

    /** The authority of a reader: no lease, no guard. */
    private enum NeverLeads implements LeaseAuthority {
        INSTANCE;

        private static final MetaKey NO_LEASE = MetaKey.of("lease/lake-meta-cli-reader");

        @Override
        public MetaKey leaseKey() {
            return NO_LEASE;
        }

        @Override
        public Optional<LeaseGuard> currentGuard() {
            return Optional.empty();
        }
    }
}
