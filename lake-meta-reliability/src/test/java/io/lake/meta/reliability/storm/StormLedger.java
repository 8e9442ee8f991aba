package io.lake.meta.reliability.storm;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the storm's clients sent and were told, to hold the final state to. Every write appends
 * its operation id to a key's value (a comma-separated list), so the final lists say which writes
 * applied, how often, and in which order.
 *
 * <ul>
 *   <li>applied → its id is in every key it wrote, exactly once (no acknowledged write lost);</li>
 *   <li>conflict or refused ({@code StoreUnavailableException}) → its id is in no key; a conflict's
 *       reported current value differs from what the write expected and is a prefix of the key's
 *       final list (no false conflict);</li>
 *   <li>unknown ({@code OutcomeUnknownException}) → its id is in all of its keys or in none, once;</li>
 *   <li>no id appears twice, and none that nobody sent (no write applied twice, nothing invented).</li>
 * </ul>
 */
final class StormLedger {

    enum Answer {
        APPLIED,
        CONFLICT,
        REFUSED,
        UNKNOWN
    }

    /** One write: its id, the keys it appends to, what it expected there, and its answer. */
    record Write(
            String id,
            List<MetaKey> keys,
            Map<MetaKey, Optional<MetaValue>> expected,
            Answer answer,
            Map<MetaKey, Optional<MetaValue>> reportedCurrent) {}

    private final ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();

    void record(Write write) {
        writes.add(write);
    }

    int size() {
        return writes.size();
    }

    long count(Answer answer) {
        return writes.stream().filter(w -> w.answer() == answer).count();
    }

    /** How many unknown outcomes turned out applied, by the final state. */
    long unknownApplied(Map<MetaKey, MetaValue> finalState) {
        Map<MetaKey, Set<String>> ids = idsByKey(finalState);
        return writes.stream()
                .filter(w -> w.answer() == Answer.UNKNOWN)
                .filter(w -> ids.getOrDefault(w.keys().get(0), Set.of()).contains(w.id()))
                .count();
    }

    /** Every way the final state contradicts an answer. */
    List<String> check(Map<MetaKey, MetaValue> finalState) {
        List<String> problems = new ArrayList<>();
        Map<MetaKey, List<String>> lists = new HashMap<>();
        finalState.forEach((k, v) -> lists.put(k, ids(Optional.of(v))));
        Set<String> sent = new HashSet<>();
        writes.forEach(w -> sent.add(w.id()));
        lists.forEach((key, list) -> {
            Set<String> once = new HashSet<>();
            for (String id : list) {
                if (!once.add(id)) {
                    problems.add("write " + id + " applied twice to " + key);
                }
                if (!sent.contains(id)) {
                    problems.add(key + " holds " + id + ", which no client sent");
                }
            }
        });
        for (Write w : writes) {
            int in = 0;
            for (MetaKey key : w.keys()) {
                in += lists.getOrDefault(key, List.of()).contains(w.id()) ? 1 : 0;
            }
            switch (w.answer()) {
                case APPLIED -> {
                    if (in != w.keys().size()) {
                        problems.add("acknowledged write " + w.id() + " is missing from "
                                + (w.keys().size() - in) + " of its keys " + w.keys());
                    }
                }
                case CONFLICT, REFUSED -> {
                    if (in != 0) {
                        problems.add("write " + w.id() + " answered " + w.answer() + " but applied to " + in + " of "
                                + w.keys());
                    }
                }
                default -> {
                    if (in != 0 && in != w.keys().size()) {
                        problems.add("unknown write " + w.id() + " applied to " + in + " of its "
                                + w.keys().size() + " keys");
                    }
                }
            }
            w.reportedCurrent().forEach((key, current) -> {
                if (current.equals(w.expected().get(key))) {
                    problems.add("false conflict: write " + w.id() + " on " + key + " expected " + current
                            + " and the store reported exactly that as current");
                }
                List<String> reported = ids(current);
                List<String> last = lists.getOrDefault(key, List.of());
                if (current.isPresent()
                        && (reported.size() > last.size()
                                || !last.subList(0, reported.size()).equals(reported))) {
                    problems.add("conflict of " + w.id() + " reported " + key + " = "
                            + current.get().asUtf8() + ", which is not a state the key went through");
                }
            });
        }
        return problems;
    }

    private Map<MetaKey, Set<String>> idsByKey(Map<MetaKey, MetaValue> state) {
        Map<MetaKey, Set<String>> ids = new HashMap<>();
        state.forEach((k, v) -> ids.put(k, new HashSet<>(ids(Optional.of(v)))));
        return ids;
    }

    static List<String> ids(Optional<MetaValue> value) {
        if (value.isEmpty() || value.get().size() == 0) {
            return List.of();
        }
        return Arrays.asList(value.get().asUtf8().split(","));
    }

    static MetaValue append(Optional<MetaValue> value, String id) {
        return MetaValue.utf8(
                value.isEmpty() || value.get().size() == 0 ? id : value.get().asUtf8() + "," + id);
    }
}
