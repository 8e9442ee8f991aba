package io.lake.meta.cli.demo;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads one namespace's tables in bounded pages, following the opaque tokens. */
final class PagingScene implements DemoScene {

    private static final int LIMIT = 2;
    private static final int MAX_PAGES = 100;

    @Override
    public String title() {
        return "Paging through a prefix";
    }

    @Override
    public void play(DemoContext demo) {
        KeyPrefix prefix = KeyPrefix.of("tbl/" + Tables.SALES + "/");
        demo.say("Pages of at most " + LIMIT + " entries under " + prefix + ". Each page hands back an opaque");
        demo.say("token for the next one; callers loop on the token, never on the count.");
        List<String> seen = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, LIMIT));
        int pages = 0;
        while (request.isPresent()) {
            demo.check(pages < MAX_PAGES, "the pages of " + prefix + " to end within " + MAX_PAGES + " pages");
            Page page = demo.store().page(request.get());
            pages++;
            demo.check(page.entries().size() <= LIMIT, "a page to hold at most " + LIMIT + " entries");
            demo.say("page " + pages + ":");
            for (Entry entry : page.entries()) {
                demo.say("    " + entry.key());
                seen.add(entry.key().toString());
            }
            demo.say("    "
                    + page.nextToken()
                            .map(token -> "next token " + DemoContext.shortToken(token))
                            .orElse("no next token: the prefix is exhausted"));
            request = request.get().next(page);
        }
        demo.check(
                seen.size() == Tables.countIn(Tables.SALES)
                        && seen.stream().distinct().count() == seen.size(),
                "every " + Tables.SALES + " table exactly once, got " + seen);
        demo.check(
                seen.stream().allMatch(key -> key.startsWith(prefix.toString())),
                "no key outside " + prefix + ", got " + seen);
        demo.say(seen.size() + " tables in " + pages + " pages, each exactly once; the tbl/ops/ tables,");
        demo.say("outside the prefix, never appeared.");
    }
}
