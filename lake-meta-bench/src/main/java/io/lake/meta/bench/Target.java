package io.lake.meta.bench;

/** A ratio's goal: at least or at most a bound. */
public record Target(boolean atLeast, double bound) {

    public static Target atLeast(double bound) {
        return new Target(true, bound);
    }

    public static Target atMost(double bound) {
        return new Target(false, bound);
    }

    public boolean isMetBy(double ratio) {
        return atLeast ? ratio >= bound : ratio <= bound;
    }

    @Override
    public String toString() {
        return (atLeast ? ">= " : "<= ") + BenchRow.format(bound);
    }
}
