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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lake-meta watch} in its own process follows a RocksDB store that this process (the
 * service) holds open and writes: it prints the contents, then the service's new writes.
 */
class LiveStoreWatchTest {

    @TempDir
    Path temp;

    @Test
    void watch_inAnotherProcess_followsTheWritesOfTheProcessHoldingTheStore() throws Exception {
        Path dir = temp.resolve("store");
        try (MetaStore service = RocksDbMetaStore.builder().directory(dir).build()) {
            service.create(MetaKey.of("catalog/a"), MetaValue.utf8("1"));

            Process watch = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            LakeMetaCommand.class.getName(),
                            "watch",
                            "--store",
                            "rocks:" + dir,
                            "--prefix",
                            "catalog/",
                            "--max-events",
                            "3")
                    .redirectError(temp.resolve("watch.err").toFile())
                    .start();
            try {
                watch.getOutputStream().close();
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8));
                List<String> lines = new ArrayList<>();
                String first = out.readLine();
                lines.add(first);
                assertThat(first)
                        .as("the watch's first line; stderr: %s", stderrOf())
                        .isEqualTo("initial catalog/a\t1");

                // written while the watch runs, by the process that holds the store
                service.create(MetaKey.of("catalog/b"), MetaValue.utf8("2"));
                service.update(MetaKey.of("catalog/a"), MetaValue.utf8("1"), MetaValue.utf8("3"));

                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
                assertThat(watch.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(watch.exitValue()).as("exit; stderr: %s", stderrOf()).isZero();
                assertThat(lines.subList(1, lines.size()))
                        .as(String.join("\n", lines))
                        .containsExactlyInAnyOrder("changed catalog/a\t3", "changed catalog/b\t2");
            } finally {
                watch.destroyForcibly();
            }
            assertThat(service.get(MetaKey.of("catalog/a")))
                    .as("the service still holds and writes its store")
                    .contains(MetaValue.utf8("3"));
        }
    }

    private String stderrOf() throws java.io.IOException {
        return Files.readString(temp.resolve("watch.err"));
    }
}
