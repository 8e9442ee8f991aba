package io.lake.meta.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code lake-meta} in a child JVM started by bash, so its arguments can be raw bytes that
 * no Java string can spell: each word is bash source, such as {@code $'tbl/bad\xed\xa0\x80'}.
 */
public final class ChildCli {

    private ChildCli() {}

    /** A bash word for {@code text}, which may hold {@code \xNN} escapes; the script stays ASCII. */
    public static String bytes(String escaped) {
        return "$'" + escaped.replace("'", "\\'") + "'";
    }

    /** A bash word for plain text. */
    public static String word(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** Runs the command under {@code locale} (LC_ALL) with the given bash words as arguments. */
    public static Cli.Run run(String locale, Path workDir, List<String> words)
            throws IOException, InterruptedException {
        String script = "exec \"$LAKE_META_JAVA\" -cp \"$LAKE_META_CP\" " + LakeMetaCommand.class.getName() + " "
                + String.join(" ", words);
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(workDir.toFile());
        builder.environment()
                .put(
                        "LAKE_META_JAVA",
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
        builder.environment().put("LAKE_META_CP", System.getProperty("java.class.path"));
        builder.environment().remove("LANG");
        builder.environment().remove("LANGUAGE");
        builder.environment().put("LC_ALL", locale);
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Process process = builder.start();
        process.getOutputStream().close();
        // the outputs are small: read them fully, then wait
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("lake-meta did not exit: " + words);
        }
        return new Cli.Run(
                process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
