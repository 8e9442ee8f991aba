package io.lake.meta.cli;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code scan --prefix P [--limit N] [--token T]}: one bounded page of a prefix. */
@Command(name = "scan", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {
            "Print one page of the keys under a prefix.",
            "One 'KEY<TAB>VALUE' line per entry, then 'next-token: T' when more may follow:",
            "pass T to --token for the next page. No next-token line: the prefix is exhausted.",
            "A page may hold fewer than --limit entries, even none, and still have a next token."
        })
final class ScanCommand extends StoreCommand {

    @Option(names = "--prefix", required = true, paramLabel = "P",
            description = "Starts with a whole family: tbl/, tbl/sales/ or tbl/sales/o.")
    String prefix;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "At most N entries, 1 to 10000 (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--token", paramLabel = "T", description = "The next-token of the previous page.")
    String token;

    @Override
    public Integer call() {
        ValueEncoding encoding = format.encoding();
        KeyPrefix keyPrefix = KeyPrefix.of(prefix);
        PageRequest request = token == null
                ? PageRequest.first(keyPrefix, limit)
                : PageRequest.after(keyPrefix, token, limit);
        Page page = withStore(false, store -> store.page(request));
        // Encode every value before printing anything, so a value that cannot be shown fails the
        // command without a half-printed page.
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Entry entry : page.entries()) {
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
            json.put("nextToken", page.nextToken().orElse(null));
            out.println(Json.write(json));
        } else {
            for (Map<String, Object> entry : entries) {
                out.println(entry.get("key") + "\t" + entry.get("value"));
            }
            page.nextToken().ifPresent(next -> out.println("next-token: " + next));
        }
        out.flush();
        return ExitCodes.OK;
    }
}
