package io.lake.meta.cli.kv;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.PrefixOption;
import io.lake.meta.cli.VersionProvider;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code scan --prefix P [--limit N] [--token T] [--all]}: up to N entries of a prefix, following
 * the store's page tokens until N are read or the prefix ends, or the whole prefix.
 */
@Command(
        name = "scan",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print the keys under a prefix: up to --limit of them, or all with --all.",
            "One 'KEY<TAB>VALUE' line per entry, then 'next-token: T' when more may follow:",
            "pass T to --token to go on. No next-token line: the prefix is exhausted.",
            "The command follows the store's page tokens itself (a DynamoDB page may be empty), so it prints "
                    + "--limit entries unless the prefix ends first."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta scan --store rocks:/tmp/meta --prefix tbl/sales/ --limit 2",
            "  lake-meta scan --store rocks:/tmp/meta --prefix tbl/sales/ --token T  # more",
            "  lake-meta scan --store rocks:/tmp/meta --prefix tbl/ --all --json"
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the entries were printed",
            ExitCodeHelp.BAD_INPUT,
            ExitCodeHelp.STORE_ERROR,
            ExitCodeHelp.INTERNAL_ERROR
        })
public final class ScanCommand extends StoreCommand {

    @Option(
            names = "--prefix",
            required = true,
            paramLabel = "P",
            description = "Starts with a whole family: tbl/, tbl/sales/ or tbl/sales/o.")
    String prefix;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "100",
            description = "At most N entries, 1 to 10000 (default: ${DEFAULT-VALUE}); with --all, the"
                    + " entries read per request.")
    int limit;

    @Option(names = "--token", paramLabel = "T", description = "The next-token of the previous scan.")
    @Nullable
    String token;

    @Option(names = "--all", description = "Every entry under the prefix (from --token on, if given).")
    boolean all;

    @Override
    public Integer call() {
        ValueEncoding encoding = format.encoding();
        KeyPrefix keyPrefix = PrefixOption.parse(prefix);
        PageRequest first =
                token == null ? PageRequest.first(keyPrefix, limit) : PageRequest.after(keyPrefix, token, limit);
        Scanned scanned = withReadOnlyStore(store -> scan(store, first));
        // Encode every value before printing anything, so a value that cannot be shown fails the
        // command without a half-printed page.
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Entry entry : scanned.entries()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("key", entry.key().toString());
            json.put("value", encoding.encode(entry.value(), "value of " + entry.key()));
            entries.add(json);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("prefix", prefix);
            json.put("encoding", encoding.label());
            json.put("entries", entries);
            json.put("nextToken", scanned.nextToken().orElse(null));
            out.println(Json.write(json));
        } else {
            for (Map<String, Object> entry : entries) {
                out.println(entry.get("key") + "\t" + entry.get("value"));
            }
            scanned.nextToken().ifPresent(next -> out.println("next-token: " + next));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** What a scan read, and where the next one starts. */
    private record Scanned(List<Entry> entries, Optional<String> nextToken) {}

    /**
     * Reads pages from {@code first} on, following their tokens, until {@code limit} entries were
     * read (each request asks only for what is still missing) or, with {@code --all}, to the end.
     */
    private Scanned scan(MetaStore store, PageRequest first) {
        List<Entry> read = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(first);
        Optional<String> next = Optional.empty();
        while (request.isPresent()) {
            Page page = store.page(request.get());
            read.addAll(page.entries());
            next = page.nextToken();
            int wanted = all ? limit : limit - read.size();
            if (next.isEmpty() || wanted == 0) {
                break;
            }
            request = Optional.of(PageRequest.after(first.prefix(), next.get(), wanted));
        }
        return new Scanned(read, next);
    }
}
