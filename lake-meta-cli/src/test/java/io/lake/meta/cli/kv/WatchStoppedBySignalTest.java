package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lake-meta watch} on {@code rocks:DIR} stopped the way an operator stops it (Ctrl-C, a
 * TERM signal) closes its read-only view, so the view's scratch directory does not stay behind.
 */
class WatchStoppedBySignalTest {

    @TempDir
    Path temp;

    @Test
    void watch_stoppedByASignal_closesItsView_andLeavesNoScratchDirectory() throws Exception {
        Path dir = temp.resolve("store");
        Path tmp = Files.createDirectory(temp.resolve("tmp"));
        try (MetaStore service = RocksDbMetaStore.builder().directory(dir).build()) {
            service.create(MetaKey.of("catalog/a"), MetaValue.utf8("1"));
            Process watch = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Djava.io.tmpdir=" + tmp,
                            "-cp",
                            System.getProperty("java.class.path"),
                            LakeMetaCommand.class.getName(),
                            "watch",
                            "--store",
                            "rocks:" + dir,
                            "--prefix",
                            "catalog/")
                    .redirectError(temp.resolve("watch.err").toFile())
                    .start();
            try {
                watch.getOutputStream().close();
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).as("stderr: %s", stderr()).isEqualTo("initial catalog/a\t1");
                assertThat(scratchDirectories(tmp))
                        .as("the open view's scratch directory")
                        .hasSize(1);

                watch.destroy(); // TERM: what Ctrl-C or a plain kill sends
                assertThat(watch.waitFor(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                watch.destroyForcibly();
            }
            assertThat(scratchDirectories(tmp))
                    .as("left behind by the stopped watch; stderr: %s", stderr())
                    .isEmpty();
        }
    }

    private String stderr() throws java.io.IOException {
        return Files.readString(temp.resolve("watch.err"));
    }

    private static List<String> scratchDirectories(Path tmp) throws java.io.IOException {
        try (Stream<Path> children = Files.list(tmp)) {
            return children.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("lake-meta-secondary-"))
                    .toList();
        }
    }
}
