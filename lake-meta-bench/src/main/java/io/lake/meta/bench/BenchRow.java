package io.lake.meta.bench;

import java.util.Locale;

/**
 * One line of the report: what was measured, against what, their ratio and its target.
 *
 * @param row what the line measures
 * @param unit the unit of {@code value} and {@code baseline}
 * @param value lake-meta's figure
 * @param against what {@code baseline} is (a raw RocksDB figure measured in the same run, or a bound)
 * @param baseline the figure {@code value} is divided by
 * @param target the goal for {@code value / baseline}
 * @param note what else the line tells (conflicts per success, capacity), or empty
 */
public record BenchRow(
        String row, String unit, double value, String against, double baseline, Target target, String note) {

    public double ratio() {
        return baseline == 0 ? Double.NaN : value / baseline;
    }

    public boolean met() {
        return target.isMetBy(ratio());
    }

    static String format(double x) {
        if (Double.isNaN(x)) {
            return "n/a";
        }
        if (x != 0 && Math.abs(x) < 10) {
            return String.format(Locale.ROOT, "%.2f", x);
        }
        return String.format(Locale.ROOT, "%,.0f", x);
    }
}
