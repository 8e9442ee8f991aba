package io.lake.meta.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** The JMH results of one run, looked up by benchmark method and parameters. */
final class Measurements {

    private final List<RunResult> results = new ArrayList<>();

    void addAll(Collection<RunResult> more) {
        results.addAll(more);
    }

    /** The median primary score of {@code Class.method}'s trials with these parameter values, if it ran. */
    Optional<Double> score(String benchmark, Map<String, String> params) {
        return median(find(benchmark, params).stream()
                .map(r -> r.getPrimaryResult().getScore())
                .toList());
    }

    /** The median of a secondary result (an aux counter) of {@code Class.method}'s trials, if it ran. */
    Optional<Double> secondary(String benchmark, Map<String, String> params, String label) {
        return median(find(benchmark, params).stream()
                .map(r -> r.getSecondaryResults().get(label))
                .filter(Objects::nonNull)
                .map(Result<?>::getScore)
                .toList());
    }

    /** Every trial's primary score of {@code Class.method} with these parameter values, in run order. */
    List<Double> scores(String benchmark, Map<String, String> params) {
        return find(benchmark, params).stream()
                .map(r -> r.getPrimaryResult().getScore())
                .toList();
    }

    private List<RunResult> find(String benchmark, Map<String, String> params) {
        return results.stream()
                .filter(r -> matches(r.getParams(), benchmark, params))
                .toList();
    }

    private static Optional<Double> median(List<Double> scores) {
        if (scores.isEmpty()) {
            return Optional.empty();
        }
        List<Double> sorted = scores.stream().sorted().toList();
        int n = sorted.size();
        return Optional.of(n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2);
    }

    private static boolean matches(BenchmarkParams run, String benchmark, Map<String, String> params) {
        if (!run.getBenchmark().endsWith("." + benchmark)) {
            return false;
        }
        return params.entrySet().stream().allMatch(p -> p.getValue().equals(run.getParam(p.getKey())));
    }
}
