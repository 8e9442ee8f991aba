package io.lake.meta.testserver.dynamodb.expr;

import io.lake.meta.testserver.dynamodb.expr.Ast.Path;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A parsed projection: the document paths to keep. Missing paths are silently left out.
 *
 * @since 0.1.0
 */
public final class ProjectionExpression {

    private final List<List<Object>> paths;

    private ProjectionExpression(List<List<Object>> paths) {
        this.paths = paths;
    }

    public static ProjectionExpression parse(String source, Placeholders placeholders) {
        Parser parser = Parser.of(source, "ProjectionExpression");
        List<Path> parsed = parser.parseProjection();
        parser.resolve(placeholders);
        List<List<Object>> resolved = new ArrayList<>();
        for (Path p : parsed) {
            resolved.add(Paths.resolve(p, placeholders));
        }
        Paths.checkNoOverlap(resolved, "ProjectionExpression");
        return new ProjectionExpression(resolved);
    }

    /** Projects over already resolved paths (used for UPDATED_OLD and UPDATED_NEW). */
    static Map<String, AttrValue> project(Map<String, AttrValue> item, List<List<Object>> paths) {
        Map<String, List<List<Object>>> byName = new LinkedHashMap<>();
        for (List<Object> p : paths) {
            byName.computeIfAbsent((String) p.get(0), k -> new ArrayList<>()).add(p.subList(1, p.size()));
        }
        Map<String, AttrValue> result = new LinkedHashMap<>();
        for (Map.Entry<String, List<List<Object>>> e : byName.entrySet()) {
            AttrValue v = item.get(e.getKey());
            AttrValue projected = v == null ? null : projectValue(v, e.getValue());
            if (projected != null) {
                result.put(e.getKey(), projected);
            }
        }
        return result;
    }

    private static @Nullable AttrValue projectValue(AttrValue v, List<List<Object>> tails) {
        for (List<Object> t : tails) {
            if (t.isEmpty()) {
                return v;
            }
        }
        if (v.type() == AttrValue.Type.M) {
            Map<String, List<List<Object>>> byName = new LinkedHashMap<>();
            for (List<Object> t : tails) {
                if (t.get(0) instanceof String) {
                    byName.computeIfAbsent((String) t.get(0), k -> new ArrayList<>())
                            .add(t.subList(1, t.size()));
                }
            }
            Map<String, AttrValue> m = new LinkedHashMap<>();
            for (Map.Entry<String, List<List<Object>>> e : byName.entrySet()) {
                AttrValue child = v.m().get(e.getKey());
                AttrValue projected = child == null ? null : projectValue(child, e.getValue());
                if (projected != null) {
                    m.put(e.getKey(), projected);
                }
            }
            return m.isEmpty() ? null : AttrValue.m(m);
        }
        if (v.type() == AttrValue.Type.L) {
            TreeMap<Integer, List<List<Object>>> byIndex = new TreeMap<>();
            for (List<Object> t : tails) {
                if (t.get(0) instanceof Integer) {
                    byIndex.computeIfAbsent((Integer) t.get(0), k -> new ArrayList<>())
                            .add(t.subList(1, t.size()));
                }
            }
            List<AttrValue> l = new ArrayList<>();
            for (Map.Entry<Integer, List<List<Object>>> e : byIndex.entrySet()) {
                if (e.getKey() < v.elements().size()) {
                    AttrValue projected = projectValue(v.elements().get(e.getKey()), e.getValue());
                    if (projected != null) {
                        l.add(projected);
                    }
                }
            }
            return l.isEmpty() ? null : AttrValue.l(l);
        }
        return null;
    }

    public Map<String, AttrValue> apply(Map<String, AttrValue> item) {
        return project(item, paths);
    }

    /** The top-level attribute names the projection touches. */
    public List<String> topLevelNames() {
        List<String> names = new ArrayList<>();
        paths.forEach(p -> names.add((String) p.get(0)));
        return names;
    }
}
