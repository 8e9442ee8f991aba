package io.lake.meta.testserver.dynamodb.expr;

import io.lake.meta.testserver.dynamodb.expr.Ast.Arith;
import io.lake.meta.testserver.dynamodb.expr.Ast.Call;
import io.lake.meta.testserver.dynamodb.expr.Ast.Operand;
import io.lake.meta.testserver.dynamodb.expr.Ast.Path;
import io.lake.meta.testserver.dynamodb.expr.Ast.SetAction;
import io.lake.meta.testserver.dynamodb.expr.Ast.SetChange;
import io.lake.meta.testserver.dynamodb.expr.Ast.Value;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.model.Numbers;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed update expression (SET with {@code +}, {@code -}, {@code if_not_exists} and
 * {@code list_append}; REMOVE; ADD for numbers and sets; DELETE for sets). Every right-hand side
 * is evaluated against the item as it was before the update.
 *
 * @since 0.1.0
 */
public final class UpdateExpression {

    private static final String PARAMETER = "UpdateExpression";

    /**
     * DynamoDB's limit on operators and functions in one update expression. Counted here: the
     * {@code +} and {@code -} operators and the functions ({@code if_not_exists},
     * {@code list_append}) of the SET actions, as in the service quotas' example, where
     * {@code SET a = :val1 + :val2 + :val3} "contains 2 '+' operators" (so {@code =} is not counted).
     */
    static final int MAX_OPERATORS = 300;

    private final Ast.Update update;
    private final Placeholders placeholders;
    private final List<List<Object>> actionPaths = new ArrayList<>();

    private UpdateExpression(Ast.Update update, Placeholders placeholders) {
        this.update = update;
        this.placeholders = placeholders;
    }

    public static UpdateExpression parse(String source, Placeholders placeholders) {
        Parser parser = Parser.of(source, PARAMETER);
        Ast.Update update = parser.parseUpdate();
        int operators = 0;
        for (SetAction s : update.sets()) {
            operators += operators(s.value());
        }
        if (operators > MAX_OPERATORS) {
            throw Errors.validation("Invalid UpdateExpression: The expression contains too many operators or functions;"
                    + " the maximum is " + MAX_OPERATORS + ", operators and functions: " + operators);
        }
        parser.resolve(placeholders);
        UpdateExpression expression = new UpdateExpression(update, placeholders);
        for (SetAction s : update.sets()) {
            expression.actionPaths.add(Paths.resolve(s.path(), placeholders));
        }
        for (Path p : update.removes()) {
            expression.actionPaths.add(Paths.resolve(p, placeholders));
        }
        for (SetChange c : update.adds()) {
            expression.actionPaths.add(Paths.resolve(c.path(), placeholders));
            AttrValue v = placeholders.value(c.value().placeholder());
            if (v.type() != AttrValue.Type.N && !v.type().set()) {
                throw Errors.validation("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                        + "operator: ADD, operand type: " + typeWord(v.type()));
            }
        }
        for (SetChange c : update.deletes()) {
            expression.actionPaths.add(Paths.resolve(c.path(), placeholders));
            AttrValue v = placeholders.value(c.value().placeholder());
            if (!v.type().set()) {
                throw Errors.validation("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                        + "operator: DELETE, operand type: " + typeWord(v.type()));
            }
        }
        Paths.checkNoOverlap(expression.actionPaths, PARAMETER);
        return expression;
    }

    private static int operators(Operand operand) {
        if (operand instanceof Arith arith) {
            return 1 + operators(arith.left()) + operators(arith.right());
        }
        if (operand instanceof Call call) {
            int count = 1;
            for (Operand arg : call.args()) {
                count += operators(arg);
            }
            return count;
        }
        return 0;
    }

    private static String typeWord(AttrValue.Type t) {
        switch (t) {
            case S:
                return "STRING";
            case N:
                return "NUMBER";
            case B:
                return "BINARY";
            case BOOL:
                return "BOOLEAN";
            case NULL:
                return "NULL";
            case M:
                return "MAP";
            case L:
                return "LIST";
            default:
                return t.name();
        }
    }

    /** The top-level attribute names the update writes or removes (for the key check). */
    public Set<String> topLevelNames() {
        Set<String> names = new LinkedHashSet<>();
        actionPaths.forEach(p -> names.add((String) p.get(0)));
        return names;
    }

    /** The part of {@code item} under the paths this update touches (UPDATED_OLD / UPDATED_NEW). */
    public Map<String, AttrValue> touched(Map<String, AttrValue> item) {
        return ProjectionExpression.project(item, actionPaths);
    }

    /**
     * Applies the update to a copy of {@code before} (empty map for a new item).
     *
     * @throws DynamoException a ValidationException for run-time errors, with DynamoDB's message
     */
    public Map<String, AttrValue> apply(Map<String, AttrValue> before) {
        List<AttrValue> setValues = new ArrayList<>();
        for (SetAction s : update.sets()) {
            setValues.add(evaluate(s.value(), before));
        }
        Map<String, AttrValue> after = new LinkedHashMap<>(before);
        for (int i = 0; i < update.sets().size(); i++) {
            set(after, Paths.resolve(update.sets().get(i).path(), placeholders), setValues.get(i));
        }
        List<List<Object>> removes = new ArrayList<>();
        update.removes().forEach(p -> removes.add(Paths.resolve(p, placeholders)));
        // later list indexes first, so earlier removals do not shift them
        removes.sort(Comparator.comparing(
                        (List<Object> p) -> p.get(p.size() - 1) instanceof Integer ? (Integer) p.get(p.size() - 1) : -1)
                .reversed());
        for (List<Object> p : removes) {
            remove(after, p);
        }
        for (SetChange c : update.adds()) {
            List<Object> path = Paths.resolve(c.path(), placeholders);
            AttrValue delta = placeholders.value(c.value().placeholder());
            AttrValue current = Paths.get(before, path);
            AttrValue result;
            if (current == null) {
                result = delta;
            } else if (current.type() == AttrValue.Type.N && delta.type() == AttrValue.Type.N) {
                result = number(current.n().add(delta.n()));
            } else if (current.type().set() && current.type() == delta.type()) {
                Set<AttrValue> union = new LinkedHashSet<>(current.elements());
                union.addAll(delta.elements());
                result = AttrValue.set(current.type(), new ArrayList<>(union));
            } else {
                throw wrongType();
            }
            set(after, path, result);
        }
        for (SetChange c : update.deletes()) {
            List<Object> path = Paths.resolve(c.path(), placeholders);
            AttrValue delta = placeholders.value(c.value().placeholder());
            AttrValue current = Paths.get(before, path);
            if (current == null) {
                continue;
            }
            if (current.type() != delta.type()) {
                throw wrongType();
            }
            List<AttrValue> remaining = new ArrayList<>(current.elements());
            remaining.removeAll(delta.elements());
            if (remaining.isEmpty()) {
                remove(after, path);
            } else {
                set(after, path, AttrValue.set(current.type(), remaining));
            }
        }
        return after;
    }

    private static DynamoException wrongType() {
        return Errors.validation("An operand in the update expression has an incorrect data type");
    }

    private static AttrValue number(BigDecimal value) {
        try {
            return AttrValue.n(Numbers.parse(value.toString()));
        } catch (IllegalArgumentException e) {
            throw Errors.validation(e.getMessage());
        }
    }

    private AttrValue evaluate(Operand o, Map<String, AttrValue> item) {
        if (o instanceof Value) {
            return placeholders.value(((Value) o).placeholder());
        }
        if (o instanceof Path) {
            AttrValue v = Paths.get(item, Paths.resolve((Path) o, placeholders));
            if (v == null) {
                throw Errors.validation(
                        "The provided expression refers to an attribute that does not exist in the item");
            }
            return v;
        }
        if (o instanceof Arith) {
            Arith a = (Arith) o;
            AttrValue l = evaluate(a.left(), item);
            AttrValue r = evaluate(a.right(), item);
            if (l.type() != AttrValue.Type.N || r.type() != AttrValue.Type.N) {
                throw wrongType();
            }
            return number(a.operator() == '+' ? l.n().add(r.n()) : l.n().subtract(r.n()));
        }
        Call call = (Call) o;
        if (call.function().equals("if_not_exists")) {
            AttrValue existing =
                    Paths.get(item, Paths.resolve((Path) call.args().get(0), placeholders));
            return existing != null ? existing : evaluate(call.args().get(1), item);
        }
        AttrValue first = evaluate(call.args().get(0), item);
        AttrValue second = evaluate(call.args().get(1), item);
        if (first.type() != AttrValue.Type.L || second.type() != AttrValue.Type.L) {
            throw wrongType();
        }
        List<AttrValue> joined = new ArrayList<>(first.elements());
        joined.addAll(second.elements());
        return AttrValue.l(joined);
    }

    private static DynamoException invalidPath() {
        return Errors.validation("The document path provided in the update expression is invalid for update");
    }

    private static void set(Map<String, AttrValue> item, List<Object> path, AttrValue value) {
        String name = (String) path.get(0);
        if (path.size() == 1) {
            item.put(name, value);
            return;
        }
        AttrValue child = item.get(name);
        if (child == null) {
            throw invalidPath();
        }
        item.put(name, setIn(child, path, 1, value));
    }

    private static AttrValue setIn(AttrValue container, List<Object> path, int i, AttrValue value) {
        Object step = path.get(i);
        boolean last = i == path.size() - 1;
        if (step instanceof String) {
            if (container.type() != AttrValue.Type.M) {
                throw invalidPath();
            }
            Map<String, AttrValue> m = new LinkedHashMap<>(container.m());
            if (last) {
                m.put((String) step, value);
            } else {
                AttrValue child = m.get(step);
                if (child == null) {
                    throw invalidPath();
                }
                m.put((String) step, setIn(child, path, i + 1, value));
            }
            return AttrValue.m(m);
        }
        if (container.type() != AttrValue.Type.L) {
            throw invalidPath();
        }
        int index = (Integer) step;
        List<AttrValue> l = new ArrayList<>(container.elements());
        if (last) {
            if (index < l.size()) {
                l.set(index, value);
            } else {
                l.add(value);
            }
        } else {
            if (index >= l.size()) {
                throw invalidPath();
            }
            l.set(index, setIn(l.get(index), path, i + 1, value));
        }
        return AttrValue.l(l);
    }

    private static void remove(Map<String, AttrValue> item, List<Object> path) {
        String name = (String) path.get(0);
        if (path.size() == 1) {
            item.remove(name);
            return;
        }
        AttrValue child = item.get(name);
        if (child != null) {
            item.put(name, removeIn(child, path, 1));
        }
    }

    private static AttrValue removeIn(AttrValue container, List<Object> path, int i) {
        Object step = path.get(i);
        boolean last = i == path.size() - 1;
        if (step instanceof String) {
            if (container.type() != AttrValue.Type.M) {
                throw invalidPath();
            }
            Map<String, AttrValue> m = new LinkedHashMap<>(container.m());
            if (last) {
                m.remove(step);
            } else if (m.containsKey(step)) {
                m.put((String) step, removeIn(m.get(step), path, i + 1));
            }
            return AttrValue.m(m);
        }
        if (container.type() != AttrValue.Type.L) {
            throw invalidPath();
        }
        int index = (Integer) step;
        List<AttrValue> l = new ArrayList<>(container.elements());
        if (index < l.size()) {
            if (last) {
                l.remove(index);
            } else {
                l.set(index, removeIn(l.get(index), path, i + 1));
            }
        }
        return AttrValue.l(l);
    }
}
