package io.lake.meta.cli.tables;

import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.RecipeStoreCommand;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tables show NS NAME}: one registration. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print one table's registration.",
            "One 'field: value' line each: table, key, state, generation, "
                    + "format, location, then 'property NAME: VALUE' per property, and for a tombstone when it was "
                    + "dropped (and when its purge started). Exits 1 when there is none."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the registration was printed",
            "1:no such table (nothing under tbl/NS/NAME)",
            "2:bad input: an invalid namespace or name, a missing store; nothing was read",
            "4:store error, or tbl/NS/NAME holds no registration this version reads (the message names the key)",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta tables show --store rocks:/tmp/meta sales orders",
            "  lake-meta tables show --store dynamo:meta --region eu-west-1 sales orders \\",
            "      --json"
        })
final class TablesShowCommand extends RecipeStoreCommand {

    @Parameters(
            index = "0",
            paramLabel = "NS",
            description = "The namespace: 1 to 128 of [A-Za-z0-9_.-], first a letter or digit.")
    String namespace;

    @Parameters(index = "1", paramLabel = "NAME", description = "The table's name, by the same rule.")
    String name;

    @Override
    public Integer call() {
        TableId id = TableId.of(namespace, name); // checked before the store is opened
        Optional<TableRegistration> registration =
                withStore(store -> TableRegistry.over(store).get(id));
        PrintWriter out = out();
        if (json) {
            Map<String, Object> answer =
                    registration.map(RegistrationView::json).orElseGet(() -> RegistrationView.identity(id));
            answer.put("found", registration.isPresent());
            out.println(Json.write(answer));
        } else if (registration.isPresent()) {
            RegistrationView.fields(registration.get()).forEach(out::println);
        } else {
            ErrorHandler.printError(spec.commandLine(), "no table " + id + ": " + id.key() + " is absent");
        }
        out.flush();
        return registration.isPresent() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }
}
