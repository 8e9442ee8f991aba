package io.lake.meta.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every package of the API declares its nullness: {@code @NullMarked} in its {@code package-info.java}. */
class NullMarkedPackagesTest {

    private static final Path SOURCES = Path.of("src/main/java");

    @Test
    void everyPackage_isNullMarked() throws IOException {
        List<Path> packages;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            packages = files.filter(p -> p.toString().endsWith(".java") && !p.endsWith("module-info.java"))
                    .map(Path::getParent).distinct().toList();
        }
        assertThat(packages).hasSizeGreaterThan(5);
        for (Path dir : packages) {
            Path info = dir.resolve("package-info.java");
            assertThat(info).as("package-info.java of %s", SOURCES.relativize(dir)).exists();
            assertThat(Files.readString(info)).as("%s", SOURCES.relativize(info)).contains("@NullMarked");
        }
    }
}
