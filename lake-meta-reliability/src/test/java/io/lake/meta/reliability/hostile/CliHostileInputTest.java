package io.lake.meta.reliability.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;

import io.lake.meta.MetaStore;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The {@code lake-meta} command fed hostile command lines (QuickTheories): unknown commands and
 * options, missing and repeated arguments, hostile keys, values, prefixes, limits and tokens,
 * malformed hex and base64, malformed transaction files, missing and foreign stores (a regular
 * file, another program's RocksDB, an unknown scheme, a DynamoDB endpoint that refuses the
 * connection). Every run ends with a documented exit code (0 to 4; never 70, the code of a bug)
 * and never prints a stack trace; a failure says why on stderr. A few runs go through a child JVM
 * with arguments that are not UTF-8 at all.
 *
 * <p>Sizes: {@code -Dlake.meta.reliability.cliRuns=N} (300 by default, 5 000 under {@code -Ptorture}).
 */
class CliHostileInputTest {

    private static final Set<Integer> DOCUMENTED =
            Set.of(ExitCodes.OK, ExitCodes.NOT_FOUND, ExitCodes.USAGE, ExitCodes.CONFLICT, ExitCodes.STORE_ERROR);

    private static final java.util.regex.Pattern STACK_FRAME =
            java.util.regex.Pattern.compile("at [\\w.$]+\\([\\w$]+\\.java:\\d+\\)");

    @TempDir
    Path work;

    private List<String> stores;
    private List<String> files;

    @BeforeEach
    void lay() throws Exception {
        Path store = work.resolve("store");
        try (MetaStore s = RocksDbMetaStore.builder().directory(store).build()) {
            s.create(io.lake.meta.MetaKey.of("tbl/a"), io.lake.meta.MetaValue.utf8("1"));
        }
        Path file = Files.writeString(work.resolve("file"), "not a store");
        Path foreign = work.resolve("foreign");
        org.rocksdb.RocksDB.loadLibrary();
        try (org.rocksdb.Options o = new org.rocksdb.Options().setCreateIfMissing(true);
                org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(o, foreign.toString())) {
            db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
        }
        stores = new ArrayList<>(List.of(
                "rocks:" + store,
                "rocks:" + work.resolve("missing"),
                "rocks:" + file,
                "rocks:" + foreign,
                "rocks:",
                "bogus:x",
                "",
                "dynamo:",
                "dynamo:no such table",
                "dynamo:t1"));
        files = new ArrayList<>();
        String[] bodies = {
            "",
            "[",
            "{}",
            "[{}]",
            "[{\"create\":\"tbl/a\"}]",
            "[{\"create\":\"tbl/b\",\"value\":1}]",
            "[{\"require\":\"tbl/a\",\"holds\":\"1\",\"absent\":true}]",
            "[{\"update\":\"tbl/a\",\"expect\":\"1\",\"value\":\"2\",\"x\":0}]",
            "[{\"delete\":\"tbl/\\ud800\",\"expect\":\"1\"}]",
            "\u0000",
            "[" + "{\"create\":\"tbl/k\",\"value\":\"v\"},".repeat(3) + "]",
            "[{\"create\":\"tbl/c\",\"value\":\"v\"}]"
        };
        for (int i = 0; i < bodies.length; i++) {
            files.add(Files.writeString(work.resolve("txn-" + i + ".json"), bodies[i])
                    .toString());
        }
        Files.write(work.resolve("txn-bad-utf8.json"), new byte[] {'[', (byte) 0xC3, '(', ']'});
        files.add(work.resolve("txn-bad-utf8.json").toString());
        files.add(work.resolve("no-such-file.json").toString());
    }

    @Test
    void hostileCommandLines_endWithADocumentedExitCode_andNoStackTrace() {
        long seed = Runs.seed("hostile-cli");
        int runs = Runs.size("cliRuns", 300, 5_000);
        String endpoint =
                DynamoStores.server().map(s -> s.endpoint().toString()).orElse("http://127.0.0.1:1");
        Gen<String> text = HostileGens.text().map(t -> t == null ? "" : t);
        Gen<String> word = Generate.frequency(List.of(
                Pair.of(3, text),
                Pair.of(
                        2,
                        Generate.pick(List.of(
                                "--store",
                                "--prefix",
                                "--limit",
                                "--token",
                                "--expect",
                                "--create",
                                "--keys",
                                "--file",
                                "--json",
                                "--hex",
                                "--base64",
                                "--endpoint",
                                "--region",
                                "--create-store",
                                "--help",
                                "-",
                                "--",
                                "--bogus",
                                "-x"))),
                Pair.of(2, Generate.pick(stores)),
                Pair.of(1, Generate.pick(files)),
                Pair.of(
                        1,
                        Generate.pick(List.of(
                                "-1",
                                "0",
                                "10001",
                                "99999999999",
                                "1e3",
                                "0x10",
                                "zz",
                                "AAAA",
                                "=",
                                "tbl/",
                                "tbl/a")))));
        Gen<List<String>> lines = Generate.pick(
                        List.of("get", "put", "delete", "scan", "txn", "help", "bogus", "", "--version"))
                .zip(
                        lists().of(word).ofSizeBetween(0, 7),
                        Generate.pick(List.of(0, 1, 2)),
                        (command, rest, connection) -> {
                            List<String> argv = new ArrayList<>();
                            argv.add(command);
                            argv.addAll(rest);
                            if (connection == 1) {
                                argv.addAll(List.of("--endpoint", endpoint, "--region", "us-east-1"));
                            } else if (connection == 2) {
                                argv.addAll(List.of("--endpoint", "http://127.0.0.1:1", "--region", "us-east-1"));
                            }
                            return argv;
                        });
        Map<Integer, Integer> byExit = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        String previousKey = System.getProperty("aws.accessKeyId");
        System.setProperty("aws.accessKeyId", "test");
        System.setProperty("aws.secretAccessKey", "test");
        try {
            qt().withFixedSeed(seed)
                    .withExamples(runs)
                    .withShrinkCycles(0)
                    .forAll(lines)
                    .checkAssert(argv -> {
                        StringWriter out = new StringWriter();
                        StringWriter err = new StringWriter();
                        int exit = LakeMetaCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                                .execute(argv.toArray(String[]::new));
                        byExit.merge(exit, 1, Integer::sum);
                        String problem = judge(exit, out.toString(), err.toString());
                        if (problem != null && problems.size() < 10) {
                            problems.add(Verdicts.show(argv) + " -> " + problem);
                        }
                    });
        } finally {
            if (previousKey == null) {
                System.clearProperty("aws.accessKeyId");
                System.clearProperty("aws.secretAccessKey");
            }
        }
        Runs.figures(
                "hostile-cli",
                "runs=" + byExit.values().stream().mapToInt(Integer::intValue).sum() + ", by exit code=" + byExit
                        + ", undocumented exits or stack traces=" + problems.size());
        assertThat(problems).as("seed above").isEmpty();
    }

    /** Null when the run is acceptable, else what is wrong with it. */
    static String judge(int exit, String out, String err) {
        if (!DOCUMENTED.contains(exit)) {
            return "exit " + exit + " (not a documented code); stderr: " + err;
        }
        for (String output : List.of(out, err)) {
            if (output.contains("\tat ")
                    || output.contains("Exception in thread")
                    || STACK_FRAME.matcher(output).find()) {
                return "a stack trace: " + output;
            }
        }
        if (exit >= ExitCodes.USAGE && err.isBlank()) {
            return "exit " + exit + " without a message on stderr";
        }
        return null;
    }

    @Test
    void argumentsThatAreNotUtf8_inAChildJvm_areRefusedWithUsage() throws Exception {
        String store = "rocks:" + work.resolve("store");
        List<List<String>> cases = List.of(
                List.of("get", "--store", word(store), "$'tbl/bad\\xff'"),
                List.of("put", "--store", word(store), "$'tbl/k'", "$'\\xed\\xa0\\x80'"),
                List.of("scan", "--store", word(store), "--prefix", "$'tbl/\\xc0\\xaf'"),
                List.of("delete", "--store", "$'rocks:/tmp/\\xfe'", "tbl/k", "--expect", "v"));
        List<String> problems = new ArrayList<>();
        for (List<String> words : cases) {
            String script = "exec \"$LAKE_META_JAVA\" -XX:TieredStopAtLevel=1 -cp \"$LAKE_META_CP\" "
                    + LakeMetaCommand.class.getName() + " " + String.join(" ", words);
            ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(work.toFile());
            builder.environment()
                    .put(
                            "LAKE_META_JAVA",
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString());
            builder.environment().put("LAKE_META_CP", System.getProperty("java.class.path"));
            builder.environment().put("LC_ALL", "C.UTF-8");
            Process p = builder.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                problems.add(words + ": did not exit");
                continue;
            }
            String problem = judge(p.exitValue(), out, err);
            if (problem != null || p.exitValue() != ExitCodes.USAGE) {
                problems.add(words + " -> exit " + p.exitValue() + ": " + (problem != null ? problem : err));
            }
        }
        Runs.figures("hostile-cli-raw-bytes", "child runs=" + cases.size() + ", problems=" + problems.size());
        assertThat(problems).isEmpty();
    }

    private static String word(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
