package io.lake.meta.testserver.dynamodb.expr;

import io.lake.meta.testserver.dynamodb.expr.Ast.Path;
import io.lake.meta.testserver.dynamodb.expr.Ast.Step;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Document paths with their placeholders resolved: reading, and overlap checks. */
final class Paths {

    private Paths() {}

    /** The steps of a path: a String for a name, an Integer for a list index. */
    static List<Object> resolve(Path path, Placeholders placeholders) {
        List<Object> steps = new ArrayList<>();
        for (Step s : path.steps()) {
            String name = s.name();
            steps.add(name == null ? (Object) s.index() : placeholders.name(name));
        }
        return steps;
    }

    /** The value at a path, or null when any step is missing or of the wrong kind. */
    static @Nullable AttrValue get(Map<String, AttrValue> item, List<Object> steps) {
        AttrValue current = item.get((String) steps.get(0));
        for (int i = 1; i < steps.size() && current != null; i++) {
            Object step = steps.get(i);
            if (step instanceof Integer) {
                int index = (Integer) step;
                current = current.type() == AttrValue.Type.L
                                && index < current.elements().size()
                        ? current.elements().get(index)
                        : null;
            } else {
                current = current.type() == AttrValue.Type.M ? current.m().get((String) step) : null;
            }
        }
        return current;
    }

    static String render(List<Object> steps) {
        List<String> parts = new ArrayList<>();
        for (Object s : steps) {
            parts.add(s instanceof Integer ? "[" + s + "]" : (String) s);
        }
        return Ast.render(parts);
    }

    /**
     * Rejects two paths where one is a prefix of (or equal to) the other, with DynamoDB's
     * message; {@code parameter} is the expression's member name.
     */
    static void checkNoOverlap(List<List<Object>> paths, String parameter) {
        for (int i = 0; i < paths.size(); i++) {
            for (int j = i + 1; j < paths.size(); j++) {
                List<Object> a = paths.get(i);
                List<Object> b = paths.get(j);
                int common = Math.min(a.size(), b.size());
                if (a.subList(0, common).equals(b.subList(0, common))) {
                    String kind = a.size() == b.size() ? "conflict" : "overlap";
                    throw io.lake.meta.testserver.dynamodb.protocol.Errors.validation("Invalid " + parameter
                            + ": Two document paths " + kind
                            + " with each other; must remove or rewrite one of these paths; path one: "
                            + render(a) + ", path two: " + render(b));
                }
            }
        }
    }
}
