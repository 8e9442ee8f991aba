package io.lake.meta.rocks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@link StoreHolderMain} in a second JVM with the test classpath. */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final BufferedReader stdout;
    private final Path stderr;

    private ChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stderr = stderr;
    }

    static ChildJvm start(Path workDir, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(StoreHolderMain.class.getName());
        command.addAll(List.of(args));
        Path stderr = Files.createTempFile(workDir, "child", ".err");
        Process process =
                new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new ChildJvm(process, stderr);
    }

    /** Blocks until the child prints {@code expected}; fails if it exits first. */
    void awaitLine(String expected) throws IOException {
        String line;
        while ((line = stdout.readLine()) != null) {
            if (line.equals(expected)) {
                return;
            }
        }
        throw new AssertionError("child exited before printing " + expected + "; stderr:\n" + Files.readString(stderr));
    }

    /** Sends one line to the child's stdin. */
    void send(String line) throws IOException {
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /** Closes the child's stdin and waits for it to exit; returns its exit code. */
    int finish() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child did not exit; stderr:\n" + Files.readString(stderr));
        }
        return process.exitValue();
    }

    String stderr() throws IOException {
        return Files.readString(stderr);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
