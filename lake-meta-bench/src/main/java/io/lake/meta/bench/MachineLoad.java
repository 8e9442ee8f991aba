package io.lake.meta.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The 1-, 5- and 15-minute load averages, read from {@code /proc/loadavg} where there is one. */
record MachineLoad(String group, String before, String after) {

    static String now() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+", -1);
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
