package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * ClientRequestTokens of committed transactions, remembered for 10 minutes after completion.
 * Only committed transactions are recorded, so a retry of a canceled one is evaluated again.
 */
final class IdempotencyCache {

    static final Duration WINDOW = Duration.ofMinutes(10);

    record Entry(JsonNode request, Instant completed, Map<String, Integer> actionsPerTable) {}

    private final Clock clock;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    IdempotencyCache(Clock clock) {
        this.clock = clock;
    }

    /** The live entry for a token, or null when unknown or older than the window. */
    @Nullable
    Entry find(String token) {
        Instant now = clock.instant();
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            if (!it.next().completed().plus(WINDOW).isAfter(now)) {
                it.remove();
            }
        }
        return entries.get(token);
    }

    void record(String token, JsonNode request, Map<String, Integer> actionsPerTable) {
        entries.put(token, new Entry(request, clock.instant(), actionsPerTable));
    }

    void clear() {
        entries.clear();
    }
}
