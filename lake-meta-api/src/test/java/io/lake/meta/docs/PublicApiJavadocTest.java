package io.lake.meta.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The missing-comment check for the public API of every library module: every public type, and
 * every public or protected method and constructor of a public type, carries a Javadoc comment
 * (an {@code @Override} inherits its interface's). Javadoc's own doclint "missing" group would also
 * demand an {@code @param} and {@code @return} on every one-line accessor, which this project's
 * style does not write; this check asks for the comment itself. It runs here, in the first module
 * built, over the sources of all of them; the CLI (an application) and the test server's internal
 * packages (public only for their own cross-package use, not an API) are left out.
 */
class PublicApiJavadocTest {

    /** The library modules, as directories next to this one. */
    private static final List<String> MODULES = List.of(
            "lake-meta-api",
            "lake-meta-recipes",
            "lake-meta-metrics",
            "lake-meta-rocks",
            "lake-meta-dynamo",
            "lake-meta-testkit",
            "lake-meta-testkit-dynamo",
            "lake-meta-testkit-localstack",
            "lake-meta-dynamo-testserver",
            "lake-meta-postgres",
            "lake-meta-testkit-postgres");

    /** Packages that are public for the module's own use only. */
    private static final List<String> INTERNAL = List.of(
            "io/lake/meta/testserver/dynamodb/engine/",
            "io/lake/meta/testserver/dynamodb/expr/",
            "io/lake/meta/testserver/dynamodb/model/",
            "io/lake/meta/testserver/dynamodb/protocol/");

    @Test
    void everyPublicTypeMethodAndConstructor_hasAJavadocComment() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<String> missing = new ArrayList<>();
        for (String module : MODULES) {
            Path sources = root.resolve(module).resolve("src/main/java");
            if (Files.isDirectory(sources)) {
                undocumented(sources).stream()
                        .filter(m -> INTERNAL.stream().noneMatch(m::startsWith))
                        .map(m -> module + "/src/main/java/" + m)
                        .forEach(missing::add);
            }
        }
        assertThat(missing)
                .as("public API elements without a Javadoc comment, and top-level public types without @since")
                .isEmpty();
    }

    static List<String> undocumented(Path sources) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java"))
                    .sorted()
                    .toList();
        }
        List<String> missing = new ArrayList<>();
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, null)) {
            JavacTask task = (JavacTask) compiler.getTask(
                    null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
            DocTrees docs = DocTrees.instance(task);
            for (CompilationUnitTree unit : task.parse()) {
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitClass(ClassTree type, Void unused) {
                        if (!exported(getCurrentPath())) {
                            return null; // package-private types and everything in them are not API
                        }
                        requireDoc(getCurrentPath(), type.getSimpleName().toString());
                        if (getCurrentPath().getParentPath().getLeaf() instanceof CompilationUnitTree) {
                            requireSince(getCurrentPath(), type.getSimpleName().toString());
                        }
                        return super.visitClass(type, unused);
                    }

                    @Override
                    public Void visitMethod(MethodTree method, Void unused) {
                        ModifiersTree mods = method.getModifiers();
                        boolean visible = mods.getFlags().contains(Modifier.PUBLIC)
                                || mods.getFlags().contains(Modifier.PROTECTED)
                                || isInterfaceMember(getCurrentPath());
                        boolean override = mods.getAnnotations().stream()
                                .anyMatch(a -> a.getAnnotationType().toString().endsWith("Override"));
                        ClassTree owner =
                                (ClassTree) getCurrentPath().getParentPath().getLeaf();
                        // a record's canonical constructor is documented by the record's @param tags
                        boolean recordConstructor = owner.getKind() == Tree.Kind.RECORD
                                && method.getName().contentEquals("<init>");
                        if (visible && !override && !mods.getFlags().contains(Modifier.PRIVATE) && !recordConstructor) {
                            requireDoc(getCurrentPath(), owner.getSimpleName() + "." + method.getName());
                        }
                        return null; // bodies hold no API
                    }

                    /** A top-level public type says in which release it appeared: {@code @since}. */
                    private void requireSince(TreePath path, String what) {
                        var doc = docs.getDocCommentTree(path);
                        if (doc != null
                                && doc.getBlockTags().stream()
                                        .noneMatch(tag -> tag.getKind() == com.sun.source.doctree.DocTree.Kind.SINCE)) {
                            long line = unit.getLineMap()
                                    .getLineNumber(docs.getSourcePositions().getStartPosition(unit, path.getLeaf()));
                            missing.add(sources.toAbsolutePath()
                                            .relativize(
                                                    Path.of(unit.getSourceFile().toUri())) + ":" + line + " " + what
                                    + " has no @since");
                        }
                    }

                    private void requireDoc(TreePath path, String what) {
                        if (docs.getDocCommentTree(path) == null) {
                            long line = unit.getLineMap()
                                    .getLineNumber(docs.getSourcePositions().getStartPosition(unit, path.getLeaf()));
                            missing.add(sources.toAbsolutePath()
                                            .relativize(
                                                    Path.of(unit.getSourceFile().toUri())) + ":" + line + " " + what);
                        }
                    }
                }.scan(unit, null);
            }
        }
        return missing;
    }

    /** Whether the type at {@code path} is public, and every type enclosing it too. */
    private static boolean exported(TreePath path) {
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof ClassTree c) {
                boolean isPublic = c.getModifiers().getFlags().contains(Modifier.PUBLIC)
                        || c.getModifiers().getFlags().contains(Modifier.PROTECTED)
                        || isInterfaceMember(p);
                if (!isPublic) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Members of interfaces are public without saying so. */
    private static boolean isInterfaceMember(TreePath path) {
        Tree parent = path.getParentPath() == null ? null : path.getParentPath().getLeaf();
        return parent instanceof ClassTree c
                && (c.getKind() == Tree.Kind.INTERFACE || c.getKind() == Tree.Kind.ANNOTATION_TYPE);
    }
}
