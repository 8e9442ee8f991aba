package io.lake.meta.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every package of the contract, the recipes and the metrics declares its nullness: {@code @NullMarked}
 * in its {@code package-info.java}.
 */
class NullMarkedPackagesTest {

    /** The modules, as directories next to this one. */
    private static final List<String> MODULES = List.of("lake-meta-api", "lake-meta-recipes", "lake-meta-metrics");

    @ParameterizedTest
    @FieldSource("MODULES")
    void everyPackage_isNullMarked(String module) throws IOException {
        Path sources = Path.of("").toAbsolutePath().getParent().resolve(module).resolve("src/main/java");
        List<Path> packages;
        try (Stream<Path> files = Files.walk(sources)) {
            packages = files.filter(p -> p.toString().endsWith(".java") && !p.endsWith("module-info.java"))
                    .map(Path::getParent)
                    .distinct()
                    .toList();
        }
        assertThat(packages).isNotEmpty();
        for (Path dir : packages) {
            Path info = dir.resolve("package-info.java");
            assertThat(info)
                    .as("package-info.java of %s", sources.relativize(dir))
                    .exists();
            assertThat(Files.readString(info))
                    .as("%s", sources.relativize(info))
                    .contains("@NullMarked");
        }
    }
}
