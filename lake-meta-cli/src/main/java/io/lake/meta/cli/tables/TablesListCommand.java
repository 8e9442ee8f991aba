package io.lake.meta.cli.tables;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.RecipeStoreCommand;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tables list [--namespace N] [--limit N] [--token T]}: one page of registrations. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print one page of table registrations, tombstones (dropped, purging) included.",
            "One line per table: NAMESPACE/NAME<TAB>STATE<TAB>GENERATION<TAB>FORMAT<TAB>LOCATION, then "
                    + "'next-token: T' when more may follow: pass T to --token (with the same --namespace)",
            "for the next page. A page may hold fewer than --limit tables (on DynamoDB mode V1 even none) "
                    + "and still have a next token. No next-token line: the registry is exhausted."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the page was printed",
            "2:bad input: an invalid namespace, limit or token (or a token of another namespace), a missing store; nothing was read",
            "4:store error, or a key under tbl/ that holds no registration this version reads (the message names the key; the page is not printed)",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta tables list --store rocks:/tmp/meta --limit 50",
            "  lake-meta tables list --store rocks:/tmp/meta --namespace sales --token T \\",
            "      --json"
        })
final class TablesListCommand extends RecipeStoreCommand {

    @Option(
            names = "--namespace",
            paramLabel = "N",
            description = "Only this namespace's tables (ns1 never lists ns10's). Default: every namespace.")
    @Nullable
    String namespace;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "100",
            description = "At most N tables, 1 to 10000 (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--token", paramLabel = "T", description = "The next-token of the previous page.")
    @Nullable
    String token;

    @Override
    public Integer call() {
        TypedPageRequest<TableRegistration> first =
                namespace == null ? TableRegistry.allNamespaces(limit) : TableRegistry.inNamespace(namespace, limit);
        TypedPageRequest<TableRegistration> request = token == null ? first : first.after(token);
        TypedPage<TableRegistration> page =
                withStore(store -> TableRegistry.over(store).scanTablesPage(request));
        PrintWriter out = out();
        if (json) {
            List<Map<String, Object>> tables = new ArrayList<>();
            page.items().forEach(r -> tables.add(RegistrationView.json(r)));
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("namespace", namespace);
            answer.put("tables", tables);
            answer.put("nextToken", page.nextToken().orElse(null));
            out.println(Json.write(answer));
        } else {
            for (TableRegistration r : page.items()) {
                out.println(RegistrationView.row(r));
            }
            page.nextToken().ifPresent(next -> out.println("next-token: " + next));
        }
        out.flush();
        return ExitCodes.OK;
    }
}
