package io.lake.meta.reliability.crash;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a main class of this module's test classpath, which the parent kills with
 * SIGKILL ({@link Process#destroyForcibly()} on Linux): no shutdown hook, no close, no flush
 * beyond what the child had already handed to the operating system.
 */
final class WriterProcess implements AutoCloseable {

    private final Process process;
    private final Path stderr;
    private final long startedNanos;

    private WriterProcess(Process process, Path stderr, long startedNanos) {
        this.process = process;
        this.stderr = stderr;
        this.startedNanos = startedNanos;
    }

    static WriterProcess start(Path workDir, Class<?> main, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // a short-lived child: the quick compiler and the small collector start fastest
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        Path stderr = workDir.resolve("child.err");
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .redirectError(stderr.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return new WriterProcess(process, stderr, started);
    }

    long startedNanos() {
        return startedNanos;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, then waits until the process is gone; returns the time it was seen gone. */
    long kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("child did not die after SIGKILL");
        }
        return System.nanoTime();
    }

    /** Waits for the child to end by itself; returns its exit code. */
    int await(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child did not exit in " + seconds + " s");
        }
        return process.exitValue();
    }

    String stderr() throws IOException {
        return Files.exists(stderr) ? Files.readString(stderr) : "";
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
