package io.lake.meta.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;

/**
 * How big a run is, which seed it plays, and where its figures go.
 *
 * <ul>
 *   <li>{@value #SEED}: the seed of the run; random when unset. Every area derives its own seed
 *       from it and its name, so replaying one area with the printed seed replays exactly its
 *       choices (the interleaving of threads stays the scheduler's, and every interleaving must
 *       pass);</li>
 *   <li>{@value #HEAVY}: {@code true} under {@code -Ptorture}: every area at full size;</li>
 *   <li>{@code lake.meta.reliability.<name>}: overrides one size, such as {@code kills} or
 *       {@code histories}.</li>
 * </ul>
 * Figures are printed and appended to {@value #FIGURES} (the module's
 * {@code target/reliability-figures.txt}), one line per area.
 */
public final class Runs {

    public static final String SEED = "lake.meta.reliability.seed";
    public static final String HEAVY = "lake.meta.reliability.heavy";
    public static final String FIGURES = "lake.meta.reliability.figures";

    private static final long RUN_SEED = Long.getLong(SEED, new SecureRandom().nextLong());

    private Runs() {}

    /** Whether this is a torture run. */
    public static boolean heavy() {
        return Boolean.getBoolean(HEAVY);
    }

    /** The seed of {@code area} in this run, printed with the line that replays it. */
    public static long seed(String area) {
        long seed = RUN_SEED ^ (area.hashCode() * 0x9E3779B97F4A7C15L);
        System.out.println("[reliability] " + area + ": run seed " + RUN_SEED + " (replay with -D" + SEED + "="
                + RUN_SEED + (heavy() ? " -D" + HEAVY + "=true" : "") + ")");
        return seed;
    }

    /** A size: the property {@code lake.meta.reliability.<name>} if set, else {@code heavy} or {@code quick}. */
    public static int size(String name, int quick, int heavy) {
        return Integer.getInteger("lake.meta.reliability." + name, heavy() ? heavy : quick);
    }

    /** Prints one area's figures and appends them to the figures file. */
    public static void figures(String area, String figures) {
        String line =
                Instant.now() + " " + area + " seed=" + RUN_SEED + (heavy() ? " heavy" : " quick") + ": " + figures;
        System.out.println("[reliability] " + line);
        String file = System.getProperty(FIGURES);
        if (file == null) {
            return;
        }
        try {
            Path path = Path.of(file);
            Files.createDirectories(path.toAbsolutePath().getParent());
            Files.writeString(
                    path,
                    line + System.lineSeparator(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println("[reliability] could not append figures to " + file + ": " + e);
        }
    }
}
