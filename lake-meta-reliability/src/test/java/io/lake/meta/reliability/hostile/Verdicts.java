package io.lake.meta.reliability.hostile;

import io.lake.meta.MetaStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * Tallies hostile calls: how many, how each ended, and the first few that ended in an exception
 * outside what the entry point documents (an untyped error), or changed state while refusing.
 */
final class Verdicts {

    /** What a value object, a store or the store's open may throw for bad input: the contract's family. */
    static final Set<Class<? extends RuntimeException>> CONTRACT = Set.of(MetaStoreException.class);

    /**
     * What the builders document for configuration mistakes: a null or out-of-range option is
     * {@code InvalidArgumentException} (the family), an option set twice or a required one missing
     * at {@code build()} is IllegalStateException.
     */
    static final Set<Class<? extends RuntimeException>> BUILDERS =
            Set.of(MetaStoreException.class, IllegalStateException.class);

    private static final int KEPT = 10;

    private long calls;
    private long refused;
    private final Map<String, Long> byOutcome = new TreeMap<>();
    private final List<String> untyped = new ArrayList<>();
    private long untypedCount;
    private final List<String> stateChanges = new ArrayList<>();
    private long stateChangeCount;

    /** Runs {@code call}; returns whether it was refused with an allowed exception. */
    boolean run(String what, Set<Class<? extends RuntimeException>> allowed, Callable<?> call) {
        calls++;
        try {
            call.call();
            byOutcome.merge("ok", 1L, Long::sum);
            return false;
        } catch (RuntimeException e) {
            for (Class<? extends RuntimeException> type : allowed) {
                if (type.isInstance(e)) {
                    refused++;
                    byOutcome.merge(e.getClass().getSimpleName(), 1L, Long::sum);
                    if (e.getMessage() == null || e.getMessage().isBlank()) {
                        untyped(what, "a refusal without a message: " + e);
                    }
                    return true;
                }
            }
            untyped(what, e.toString());
            return false;
        } catch (Exception | StackOverflowError e) {
            untyped(what, e.toString());
            return false;
        }
    }

    void untyped(String what, String error) {
        untypedCount++;
        byOutcome.merge("untyped", 1L, Long::sum);
        if (untyped.size() < KEPT) {
            untyped.add(what + " -> " + error);
        }
    }

    void stateChanged(String what, String how) {
        stateChangeCount++;
        if (stateChanges.size() < KEPT) {
            stateChanges.add(what + ": " + how);
        }
    }

    long calls() {
        return calls;
    }

    long untypedCount() {
        return untypedCount;
    }

    long stateChangeCount() {
        return stateChangeCount;
    }

    List<String> untypedExamples() {
        return untyped;
    }

    List<String> stateChangeExamples() {
        return stateChanges;
    }

    String figures() {
        return "calls=" + calls + ", refused with a typed error=" + refused + ", untyped errors=" + untypedCount
                + ", state changes=" + stateChangeCount + ", outcomes=" + byOutcome;
    }

    /** Abbreviates a hostile argument for a report line. */
    static String show(Object o) {
        String s = String.valueOf(o);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(s.length(), 60); i++) {
            char c = s.charAt(i);
            b.append(
                    c < 0x20 || (c >= 0xD800 && c <= 0xDFFF) || c > 0x7E
                            ? String.format("\\u%04x", (int) c)
                            : String.valueOf(c));
        }
        return s.length() > 60 ? b + "...(" + s.length() + ")" : b.toString();
    }
}
