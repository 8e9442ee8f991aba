package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.kv.GetCommand;
import io.lake.meta.cli.store.RocksStoreSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What a {@code get} pays for at start-up, checked without a clock (the times are
 * {@code .ci/cli-startup}'s, on a quiet machine): the class files the AppCDS archive of
 * {@code ./lake-meta} must be able to hold, and the classes a {@code get} on a RocksDB store loads.
 */
class GetStartupFootprintTest {

    /** The class-file version of Java 17; class-data sharing refuses the versions before Java 6. */
    private static final int JAVA_17 = 61;

    @TempDir
    Path temp;

    @Test
    void picocli_isBuiltForJava17_andNoClassOnTheGetPath_concatenatesByMethodHandle() throws IOException {
        // picocli's released jar holds Java 5 class files (version 49), which no AppCDS archive takes
        assertThat(classFileVersion(CommandLine.class))
                .as("picocli's class-file version")
                .isEqualTo(JAVA_17);
        for (Class<?> type :
                List.of(CommandLine.class, LakeMetaCommand.class, GetCommand.class, RocksStoreSpec.class)) {
            // an invokedynamic concatenation spins method-handle classes on its first run, at every start
            assertThat(new String(classFile(type), StandardCharsets.ISO_8859_1))
                    .as("%s concatenates strings by invokedynamic", type.getName())
                    .doesNotContain("makeConcatWithConstants");
        }
    }

    @Test
    void get_onARocksStore_loadsNoOtherCommandsLibraries_andNoRecordMethodBootstrap() throws Exception {
        Path store = temp.resolve("store");
        Cli.Run put = Cli.run("put", "--store", "rocks:" + store, "--create-store", "catalog/a", "v1");
        assertThat(put.exitCode()).as(put.toString()).isZero();
        Path log = temp.resolve("classes.log");

        // -Xshare:off: every class the run needs is loaded and logged, none comes pre-loaded by an archive
        Process get = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xshare:off",
                        "-Xlog:class+load=info:file=" + log,
                        "-cp",
                        System.getProperty("java.class.path"),
                        LakeMetaCommand.class.getName(),
                        "get",
                        "--store",
                        "rocks:" + store,
                        "catalog/a")
                .redirectErrorStream(true)
                .start();
        get.getOutputStream().close();
        String output = new String(get.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(get.waitFor(60, TimeUnit.SECONDS)).as("get exited").isTrue();
        assertThat(get.exitValue()).as(output).isZero();
        assertThat(output).isEqualTo("v1\n");

        List<String> loaded;
        try (var lines = Files.lines(log)) {
            loaded = lines.map(GetStartupFootprintTest::className).collect(Collectors.toList());
        }
        assertThat(loaded)
                .as("the log is the run's")
                .contains(GetCommand.class.getName(), "io.lake.meta.rocks.RocksDbMetaStore");
        assertThat(loaded)
                .as("a get builds the model of get only, and reads no JSON: the others' libraries stay unloaded")
                .noneMatch(name -> name.startsWith("org.openjdk.jmh.")
                        || name.startsWith("io.lake.meta.bench.")
                        || name.startsWith("com.fasterxml.jackson.")
                        || name.startsWith("me.tongfei.progressbar.")
                        || name.startsWith("org.jline.")
                        || name.startsWith("org.postgresql.")
                        || name.startsWith("software.amazon.awssdk.core.client."))
                .as("a record's generated toString, equals or hashCode (a method-handle bootstrap)")
                .doesNotContain("java.lang.runtime.ObjectMethods");
    }

    /** The class name of a {@code -Xlog:class+load} line: {@code [0.012s][info][class,load] NAME source: ...}. */
    private static String className(String line) {
        String afterTags = line.substring(line.indexOf("] ", line.indexOf("[class,load]")) + 2);
        int end = afterTags.indexOf(' ');
        return end < 0 ? afterTags : afterTags.substring(0, end);
    }

    private static int classFileVersion(Class<?> type) throws IOException {
        byte[] bytes = classFile(type);
        return ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
    }

    private static byte[] classFile(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            assertThat(in).as("%s's class file", type.getName()).isNotNull();
            return in.readAllBytes();
        }
    }
}
