import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The docs check: every Java snippet of README.md and docs/guides/*.md is pasted into a scratch
 * Maven project (target/docs-check), compiled against the installed lake-meta artifacts, and the
 * runnable ones are run, so the docs cannot drift from the code.
 *
 * <p>Run from the repository root after {@code mvn install}:
 * {@code java .ci/docs-check/DocsCheck.java [--compile-only] [maven options such as -o]}.
 *
 * <p>The scratch project's pom is the one the docs tell a reader to write: the getting-started
 * guide's pom fragment (fenced {@code xml}, marked {@code <!-- docs-check: pom -->}) in an
 * otherwise empty project, plus the dependency fragments marked
 * {@code <!-- docs-check: pom-dependencies -->}, plus the libraries the guides only name in prose
 * (Micrometer, an SLF4J provider, the Apache HTTP client).
 *
 * <p>A Java snippet's mode is named by an HTML comment on the line before its fence (invisible in
 * rendered Markdown); without one the snippet is {@code main}:
 * <ul>
 *   <li>{@code main}: statements, optionally after imports; wrapped in
 *       {@code public static void main(String[] args)} (no {@code throws}: checked exceptions must
 *       be handled as the snippet shows) and RUN in a fresh empty working directory; it must exit 0.
 *   <li>{@code class}: whole type declarations; compiled as test sources, so JUnit tests in them
 *       run (a contract suite on a snippet's backend runs in full).
 *   <li>{@code body [in=Type] [returns=Type] [throws=Type]}: statements, compiled as the body of a
 *       method of an abstract class extending {@code in} (a class of lake-meta, or a context in
 *       .ci/docs-check/support/ declaring what the prose around the snippet says the reader has:
 *       {@code store}, {@code election}, ...). Compiled, not run.
 *   <li>{@code members [in=Type]}: fields and methods, compiled as members of an abstract class
 *       extending {@code in}. Compiled, not run.
 * </ul>
 * Snippets leave out imports of lake-meta's packages, java.util, java.time, java.nio.file,
 * java.util.concurrent, JUnit's annotations and the AWS SDK classes they name (an IDE adds them):
 * the check adds those imports; imports a snippet shows are kept.
 */
public final class DocsCheck {
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*docs-check:\\s*(.*?)\\s*-->\\s*$");
    private static final Pattern FENCE_OPEN = Pattern.compile("^(\\s*)```(\\w+)\\s*$");

    private static final List<String> IMPLIED_IMPORTS = List.of(
            "io.lake.meta.*", "io.lake.meta.watch.*", "io.lake.meta.spi.*", "io.lake.meta.lease.*",
            "io.lake.meta.fenced.*", "io.lake.meta.lock.*", "io.lake.meta.counter.*", "io.lake.meta.copy.*",
            "io.lake.meta.registry.*", "io.lake.meta.maintenance.*", "io.lake.meta.ops.*", "io.lake.meta.recipes.*",
            "io.lake.meta.metrics.*", "io.lake.meta.rocks.*", "io.lake.meta.dynamo.*",
            "io.lake.meta.dynamo.metrics.*", "io.lake.meta.postgres.*", "io.lake.meta.testkit.*", "io.lake.meta.testkit.lease.*",
            "io.lake.meta.testkit.dynamo.*",
            "java.nio.file.*", "java.time.*", "java.util.*", "java.util.concurrent.*",
            "org.junit.jupiter.api.*", "org.junit.jupiter.api.extension.RegisterExtension",
            "software.amazon.awssdk.regions.Region",
            "software.amazon.awssdk.services.dynamodb.DynamoDbClient",
            "software.amazon.awssdk.http.apache.ApacheHttpClient",
            "io.micrometer.core.instrument.MeterRegistry",
            "docscheck.support.*");

    /** What the guides name in prose only; versions as the parent pom builds with them. */
    private static final String EXTRA_DEPENDENCIES = """
                <dependency>
                  <groupId>io.lake</groupId>
                  <artifactId>lake-meta-metrics</artifactId>
                </dependency>
                <dependency>
                  <groupId>software.amazon.awssdk</groupId>
                  <artifactId>apache-client</artifactId>
                  <version>2.57.8</version>
                </dependency>
                <dependency>
                  <groupId>org.slf4j</groupId>
                  <artifactId>slf4j-simple</artifactId>
                </dependency>
            """;

    record Snippet(Path doc, int line, String lang, String marker, String text) {
        String origin() {
            return doc + ":" + line;
        }

        String mode() {
            return marker.isEmpty() ? "main" : marker.split("\\s+")[0];
        }

        String option(String name) {
            Matcher m = Pattern.compile("(?:^|\\s)" + name + "=(\\S+)").matcher(marker);
            return m.find() ? m.group(1) : null;
        }

        String packageName() {
            String base = doc.getFileName().toString().replaceFirst("\\.md$", "")
                    .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
            return "docs." + base + "_l" + line;
        }
    }

    public static void main(String[] args) throws Exception {
        boolean compileOnly = false;
        List<String> mavenOptions = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--compile-only")) {
                compileOnly = true;
            } else {
                mavenOptions.add(arg);
            }
        }
        Path root = Path.of("").toAbsolutePath();
        List<Path> docs = new ArrayList<>();
        docs.add(root.resolve("README.md"));
        try (Stream<Path> guides = Files.list(root.resolve("docs/guides"))) {
            guides.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<Snippet> snippets = new ArrayList<>();
        for (Path doc : docs) {
            snippets.addAll(snippetsOf(root.relativize(doc), Files.readAllLines(doc, StandardCharsets.UTF_8)));
        }

        Path project = root.resolve("target/docs-check");
        deleteRecursively(project);
        Path sources = project.resolve("src/test/java");
        Files.createDirectories(sources);
        Files.writeString(project.resolve("pom.xml"), pomOf(snippets));
        Path support = root.resolve(".ci/docs-check/support");
        try (Stream<Path> files = Files.list(support)) {
            for (Path file : files.sorted().toList()) {
                Path target = sources.resolve("docscheck/support").resolve(file.getFileName());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        List<Snippet> runnable = new ArrayList<>();
        int javaSnippets = 0;
        for (Snippet snippet : snippets) {
            if (!snippet.lang().equals("java")) {
                continue;
            }
            javaSnippets++;
            Path dir = sources.resolve(snippet.packageName().replace('.', '/'));
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(fileNameOf(snippet)), sourceOf(snippet));
            if (snippet.mode().equals("main")) {
                runnable.add(snippet);
            }
            System.out.printf("docs-check: %-45s %s%n", snippet.origin(), snippet.mode() + (snippet.marker().isEmpty() ? "" : " (" + snippet.marker() + ")"));
        }
        System.out.printf("docs-check: %d Java snippets, %d runnable; project %s%n", javaSnippets, runnable.size(), root.relativize(project));

        List<String> mvn = new ArrayList<>(List.of("mvn", "-B", "-q", "-f", project.resolve("pom.xml").toString()));
        mvn.addAll(mavenOptions);
        mvn.add(compileOnly ? "test-compile" : "test");
        mvn.add("org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath");
        mvn.add("-Dmdep.outputFile=" + project.resolve("classpath.txt"));
        mvn.add("-Dmdep.includeScope=test");
        if (run(mvn, root, 3600) != 0) {
            fail("the snippets do not compile (or a snippet's tests failed): see the Maven output above; sources under " + root.relativize(sources));
        }
        if (compileOnly) {
            System.out.println("docs-check: compiled (--compile-only: nothing run)");
            return;
        }
        // a test class a snippet declares must have run (an old Surefire finds no JUnit 5 tests and says nothing)
        Pattern testClass = Pattern.compile("(?m)^(?:public\\s+)?class\\s+(\\w+Test)\\b");
        for (Snippet snippet : snippets) {
            Matcher m = testClass.matcher(snippet.text());
            while (snippet.lang().equals("java") && snippet.mode().equals("class") && m.find()) {
                Path report = project.resolve("target/surefire-reports/TEST-" + snippet.packageName() + "." + m.group(1) + ".xml");
                if (!Files.exists(report)) {
                    fail(snippet.origin() + ": the tests of " + m.group(1) + " did not run (no " + root.relativize(report) + ")");
                }
                System.out.println("docs-check: " + snippet.origin() + ": " + m.group(1) + " ran");
            }
        }
        String classpath = project.resolve("target/test-classes") + java.io.File.pathSeparator
                + Files.readString(project.resolve("classpath.txt")).trim();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (Snippet snippet : runnable) {
            Path workDir = Files.createTempDirectory("docs-check-");
            System.out.println("docs-check: running " + snippet.origin() + " in " + workDir);
            int code = run(List.of(java, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", classpath,
                    snippet.packageName() + ".Snippet"), workDir, 300);
            deleteRecursively(workDir);
            if (code != 0) {
                fail(snippet.origin() + " exited " + code);
            }
        }
        System.out.println("docs-check: all " + javaSnippets + " Java snippets compiled, " + runnable.size() + " ran");
    }

    static List<Snippet> snippetsOf(Path doc, List<String> lines) {
        List<Snippet> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE_OPEN.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String indent = open.group(1);
            String lang = open.group(2);
            String marker = "";
            if (i > 0) {
                Matcher m = MARKER.matcher(lines.get(i - 1));
                if (m.matches()) {
                    marker = m.group(1);
                }
            }
            StringBuilder text = new StringBuilder();
            int j = i + 1;
            for (; j < lines.size() && !lines.get(j).trim().equals("```"); j++) {
                String line = lines.get(j);
                text.append(line.startsWith(indent) ? line.substring(indent.length()) : line.stripLeading()).append('\n');
            }
            found.add(new Snippet(doc, i + 1, lang, marker, text.toString()));
            i = j;
        }
        return found;
    }

    static String pomOf(List<Snippet> snippets) {
        List<Snippet> poms = snippets.stream().filter(s -> s.marker().equals("pom")).toList();
        if (poms.size() != 1) {
            fail("expected exactly one xml snippet marked <!-- docs-check: pom --> (the reader's pom), found "
                    + poms.stream().map(Snippet::origin).collect(Collectors.toList()));
        }
        String fragment = poms.get(0).text();
        int managementEnd = fragment.indexOf("</dependencyManagement>");
        int dependenciesEnd = fragment.lastIndexOf("</dependencies>");
        if (managementEnd < 0 || dependenciesEnd < managementEnd) {
            fail(poms.get(0).origin() + ": the pom fragment needs <dependencyManagement> (the BOM) and <dependencies>");
        }
        String dependencies = newDependencies(fragment, snippets, "pom-dependencies") + EXTRA_DEPENDENCIES;
        fragment = fragment.substring(0, dependenciesEnd) + dependencies + fragment.substring(dependenciesEnd);
        int managedEnd = fragment.lastIndexOf("</dependencies>", managementEnd);
        fragment = fragment.substring(0, managedEnd) + newDependencies(fragment, snippets, "pom-managed")
                + fragment.substring(managedEnd);
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
                  <!-- generated by .ci/docs-check/DocsCheck.java from %s -->
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>docs-check</artifactId>
                  <version>1.0.0-SNAPSHOT</version>
                %s
                </project>
                """.formatted(poms.get(0).origin(), fragment);
    }

    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>.*?</dependency>", Pattern.DOTALL);

    /** The {@code <dependency>} elements of the snippets marked {@code mode} that {@code pom} does not already declare. */
    static String newDependencies(String pom, List<Snippet> snippets, String mode) {
        Map<String, String> added = new LinkedHashMap<>();
        for (Snippet snippet : snippets) {
            if (!snippet.marker().equals(mode)) {
                continue;
            }
            Matcher m = DEPENDENCY.matcher(snippet.text());
            while (m.find()) {
                String coordinates = m.group(1) + ":" + m.group(2);
                if (!pom.contains("<artifactId>" + m.group(2) + "</artifactId>")) {
                    added.putIfAbsent(coordinates, m.group() + "\n");
                }
            }
        }
        return String.join("", added.values());
    }

    static String fileNameOf(Snippet snippet) {
        Matcher publicType = Pattern.compile("(?m)^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)").matcher(snippet.text());
        return (snippet.mode().equals("class") && publicType.find() ? publicType.group(1) : "Snippet") + ".java";
    }

    static String sourceOf(Snippet snippet) {
        List<String> imports = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        boolean inImports = true;
        for (String line : snippet.text().split("\n", -1)) {
            if (inImports && (line.startsWith("import ") || line.isBlank())) {
                if (!line.isBlank()) {
                    imports.add(line);
                }
            } else {
                inImports = false;
                body.append(line).append('\n');
            }
        }
        StringBuilder source = new StringBuilder();
        source.append("// generated by .ci/docs-check/DocsCheck.java from ").append(snippet.origin())
                .append(" (").append(snippet.mode()).append(")\n");
        source.append("package ").append(snippet.packageName()).append(";\n\n");
        imports.forEach(i -> source.append(i).append('\n'));
        IMPLIED_IMPORTS.forEach(i -> source.append("import ").append(i).append(";\n"));
        source.append('\n');
        String in = snippet.option("in");
        String extendsClause = in == null ? "" : " extends " + in;
        String throwsClause = snippet.option("throws") == null ? "" : " throws " + snippet.option("throws");
        switch (snippet.mode()) {
            case "main" -> source.append("public final class Snippet {\n")
                    .append("public static void main(String[] args)").append(throwsClause).append(" {\n")
                    .append(body).append("}\n}\n");
            case "class" -> source.append(body);
            case "body" -> source.append("abstract class Snippet").append(extendsClause).append(" {\n")
                    .append(snippet.option("returns") == null ? "void" : snippet.option("returns"))
                    .append(" snippet()").append(throwsClause).append(" {\n")
                    .append(body).append("}\n}\n");
            case "members" -> source.append("abstract class Snippet").append(extendsClause).append(" {\n")
                    .append(body).append("}\n");
            default -> fail(snippet.origin() + ": unknown docs-check mode '" + snippet.mode()
                    + "' (main, class, body, members)");
        }
        return source.toString();
    }

    static int run(List<String> command, Path dir, long timeoutSeconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + ": still running after " + timeoutSeconds + " s");
        }
        return process.exitValue();
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    static void fail(String message) {
        System.err.println("docs-check: FAILED: " + message);
        System.exit(1);
    }
}
