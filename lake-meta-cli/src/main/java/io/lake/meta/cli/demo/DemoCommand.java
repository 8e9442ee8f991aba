package io.lake.meta.cli.demo;

import io.lake.meta.MetaStore;
import io.lake.meta.cli.Directories;
import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.cli.store.RocksStoreSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code demo [--path DIR]}: the main job, scene by scene, on an embedded RocksDB store. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Walk through lake-meta on an embedded RocksDB store.",
            "Scenes: table registrations, compare-and-set, guarded writes, paging with tokens, leader "
                    + "election with a fenced store, paged maintenance under fenced table locks with an operation "
                    + "replayed idempotently.",
            "The store lives in a temporary directory, deleted afterwards, unless --path keeps it."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:every scene was played",
            "2:bad input: --path names a file or a directory that is not empty",
            "4:the store failed",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {"  lake-meta demo", "  lake-meta demo --path /tmp/demo-store   # keeps the store to look at later"})
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--path",
            paramLabel = "DIR",
            description = "Keep the demo's store in DIR, which must be new or empty.")
    @Nullable
    Path path;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        boolean keep = path != null;
        Path directory = path != null ? prepareKeptDirectory(path) : Files.createTempDirectory("lake-meta-demo-");
        List<DemoScene> scenes = DemoScenes.all();
        try {
            out.println("lake-meta demo: RocksDB store in " + directory
                    + (keep ? " (kept)" : " (temporary, deleted at the end)"));
            try (MetaStore store = new RocksStoreSpec(directory).open(true)) {
                DemoContext demo = new DemoContext(store, out);
                for (int i = 0; i < scenes.size(); i++) {
                    out.println();
                    out.println("== " + (i + 1) + ". " + scenes.get(i).title() + " ==");
                    scenes.get(i).play(demo);
                }
            }
        } finally {
            if (!keep) {
                deleteRecursively(directory);
            }
        }
        out.println();
        out.println("Done: " + scenes.size() + " scenes played. "
                + (keep
                        ? "The store is kept in " + directory
                                + "; look inside with: lake-meta tables list --store rocks:" + directory
                                + " (or lake-meta scan --store rocks:" + directory + " --prefix tbl/)"
                        : "The temporary store was deleted."));
        out.flush();
        return ExitCodes.OK;
    }

    private static Path prepareKeptDirectory(Path path) throws IOException {
        if (Files.exists(path) && !Files.isDirectory(path)) {
            throw new UsageException("--path " + path + " is a file: pass a new or empty directory");
        }
        if (Files.isDirectory(path) && !Directories.isEmpty(path)) {
            throw new UsageException("--path " + path + " is not empty: the demo writes a fresh store,"
                    + " so pass a new or empty directory");
        }
        return Files.createDirectories(path);
    }

    private void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (IOException | UncheckedIOException e) {
            ErrorHandler.printError(
                    spec.commandLine(),
                    "warning: could not delete the temporary store " + directory + ": " + e.getMessage());
        }
    }
}
