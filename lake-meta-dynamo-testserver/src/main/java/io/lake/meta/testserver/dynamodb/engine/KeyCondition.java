package io.lake.meta.testserver.dynamodb.engine;

import io.lake.meta.testserver.dynamodb.expr.Ast;
import io.lake.meta.testserver.dynamodb.expr.Ast.Cond;
import io.lake.meta.testserver.dynamodb.expr.Ast.Operand;
import io.lake.meta.testserver.dynamodb.expr.ConditionExpression;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Query's key condition checked against the table's key schema: one equality on the partition
 * key and at most one condition on the sort key ({@code = < <= > >=}, BETWEEN, begins_with).
 */
final class KeyCondition {

    /** One condition on one key attribute. */
    private record Part(String attribute, String operator, List<AttrValue> values) {}

    /**
     * What a Query checks of its ExclusiveStartKey while the key condition is analysed, in the
     * service's order: the start key's shape before any key attribute, then each key attribute
     * in the start key just before that attribute's condition is checked.
     */
    interface StartKeyChecks {

        /** No start key: nothing to check. */
        StartKeyChecks NONE = new StartKeyChecks() {
            @Override
            public void shape() {}

            @Override
            public void attribute(String name, AttrValue.Type type) {}
        };

        void shape();

        void attribute(String name, AttrValue.Type type);
    }

    final AttrValue hashValue;
    private final @Nullable Part range; // null: no sort-key condition
    private final boolean wholeKey;

    private KeyCondition(AttrValue hashValue, @Nullable Part range, boolean wholeKey) {
        this.hashValue = hashValue;
        this.range = range;
        this.wholeKey = wholeKey;
    }

    /**
     * Whether the condition fixes the whole primary key (a sort-key equality, or a table without a
     * sort key), so that at most one item can match and a page holds every match.
     */
    boolean atMostOneItem() {
        return wholeKey;
    }

    boolean hasRangeCondition() {
        return range != null;
    }

    /** The smallest sort-key value the condition can match, or null when unbounded below. */
    @Nullable
    AttrValue lowerBound() {
        if (range == null) {
            return null;
        }
        switch (range.operator) {
            case "=":
            case ">":
            case ">=":
            case "BETWEEN":
            case "begins_with":
                return range.values.get(0);
            default:
                return null;
        }
    }

    /** The largest sort-key value the condition can match, or null when unbounded above. */
    @Nullable
    AttrValue upperBound() {
        if (range == null) {
            return null;
        }
        switch (range.operator) {
            case "=":
            case "<":
            case "<=":
                return range.values.get(0);
            case "BETWEEN":
                return range.values.get(1);
            default:
                return null;
        }
    }

    boolean rangeIsEquality() {
        return range != null && range.operator.equals("=");
    }

    /** Whether a sort-key value satisfies the sort-key condition (true when there is none). */
    boolean matchesRange(@Nullable AttrValue value) {
        if (range == null) {
            return true;
        }
        if (value == null || value.type() != range.values.get(0).type()) {
            return false;
        }
        AttrValue a = range.values.get(0);
        switch (range.operator) {
            case "=":
                return AttrValue.compareScalars(value, a) == 0;
            case "<":
                return AttrValue.compareScalars(value, a) < 0;
            case "<=":
                return AttrValue.compareScalars(value, a) <= 0;
            case ">":
                return AttrValue.compareScalars(value, a) > 0;
            case ">=":
                return AttrValue.compareScalars(value, a) >= 0;
            case "BETWEEN":
                return AttrValue.compareScalars(value, a) >= 0
                        && AttrValue.compareScalars(value, range.values.get(1)) <= 0;
            default: { // begins_with
                if (value.type() == AttrValue.Type.S) {
                    return value.s().startsWith(a.s());
                }
                byte[] whole = value.b();
                byte[] prefix = a.b();
                return whole.length >= prefix.length
                        && java.util.Arrays.equals(whole, 0, prefix.length, prefix, 0, prefix.length);
            }
        }
    }

    private static DynamoException invalid(String detail) {
        return Errors.validation(detail);
    }

    /**
     * Checks the condition against the schema, calling {@code startKey} at the points where the
     * service checks the ExclusiveStartKey. Every value compared with a key attribute is a key
     * value: an empty string or binary is refused naming the attribute, whatever the operator.
     */
    static KeyCondition analyse(ConditionExpression expression, KeySchema schema, StartKeyChecks startKey) {
        List<Cond> conjuncts = new ArrayList<>();
        flatten(expression.root(), conjuncts);
        List<Part> parts = new ArrayList<>();
        for (Cond c : conjuncts) {
            parts.add(part(c, expression));
        }
        if (parts.size() > 2) {
            throw Errors.validation("Query key condition not supported");
        }
        Part hash = null;
        Part range = null;
        boolean nonKeyCondition = false;
        for (Part p : parts) {
            if (p.attribute.equals(schema.hashName())) {
                if (hash != null) {
                    throw Errors.validation("KeyConditionExpressions must only contain one condition per key");
                }
                hash = p;
            } else if (p.attribute.equals(schema.rangeName())) {
                if (range != null) {
                    throw Errors.validation("KeyConditionExpressions must only contain one condition per key");
                }
                range = p;
            } else {
                nonKeyCondition = true;
            }
        }
        startKey.shape();
        startKey.attribute(schema.hashName(), schema.hashType());
        if (hash == null || (nonKeyCondition && !schema.hasRange())) {
            throw Errors.validation("Query condition missed key schema element: " + schema.hashName());
        }
        if (!hash.operator.equals("=")) {
            throw Errors.validation("Query key condition not supported");
        }
        checkType(hash, schema.hashType());
        KeySchema.checkNotEmpty(schema.hashName(), hash.values.get(0));
        KeySchema.checkHashSize(hash.values.get(0));
        String rangeName = schema.rangeName();
        AttrValue.Type rangeType = schema.rangeType();
        if (rangeName != null && rangeType != null) {
            startKey.attribute(rangeName, rangeType);
            if (nonKeyCondition) {
                throw Errors.validation("Query condition missed key schema element: " + rangeName);
            }
        }
        if (range != null) {
            checkType(range, Objects.requireNonNull(rangeType)); // a sort-key condition names the schema's sort key
            range.values.forEach(v -> KeySchema.checkNotEmpty(rangeName, v));
            range.values.forEach(KeySchema::checkRangeSize);
            if (range.operator.equals("begins_with") && rangeType == AttrValue.Type.N) {
                throw invalid(
                        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, "
                                + "operand type: N");
            }
        }
        boolean wholeKey = range == null ? !schema.hasRange() : range.operator.equals("=");
        return new KeyCondition(hash.values.get(0), range, wholeKey);
    }

    private static void checkType(Part p, AttrValue.Type type) {
        for (AttrValue v : p.values) {
            if (v.type() != type) {
                throw Errors.validation("One or more parameter values were invalid: Condition parameter type does not "
                        + "match schema type");
            }
        }
    }

    private static void flatten(Cond c, List<Cond> out) {
        if (c instanceof Ast.Paren) {
            flatten(((Ast.Paren) c).inner(), out);
        } else if (c instanceof Ast.And) {
            flatten(((Ast.And) c).left(), out);
            flatten(((Ast.And) c).right(), out);
        } else {
            out.add(c);
        }
    }

    private static Part part(Cond c, ConditionExpression e) {
        if (c instanceof Ast.Or) {
            throw invalid("Invalid operator used in KeyConditionExpression: OR");
        }
        if (c instanceof Ast.Not) {
            throw invalid("Invalid operator used in KeyConditionExpression: NOT");
        }
        if (c instanceof Ast.In) {
            throw invalid("Invalid operator used in KeyConditionExpression: IN");
        }
        if (c instanceof Ast.Compare) {
            Ast.Compare cmp = (Ast.Compare) c;
            if (cmp.operator().equals("<>")) {
                throw invalid("Invalid operator used in KeyConditionExpression: <>");
            }
            noNesting(cmp.left());
            noNesting(cmp.right());
            boolean leftPath = cmp.left() instanceof Ast.Path;
            boolean rightPath = cmp.right() instanceof Ast.Path;
            if (leftPath && rightPath) {
                throw invalid(
                        "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
            }
            if (!leftPath && !rightPath) {
                throw invalid("Invalid condition in KeyConditionExpression: No key attribute specified");
            }
            Ast.Path path = (Ast.Path) (leftPath ? cmp.left() : cmp.right());
            Ast.Value value = (Ast.Value) (leftPath ? cmp.right() : cmp.left());
            String operator = leftPath ? cmp.operator() : mirror(cmp.operator());
            return new Part(
                    attribute(path, e), operator, List.of(e.placeholders().value(value.placeholder())));
        }
        if (c instanceof Ast.Between) {
            Ast.Between b = (Ast.Between) c;
            noNesting(b.operand());
            noNesting(b.low());
            noNesting(b.high());
            if (!(b.operand() instanceof Ast.Path)) {
                throw invalid(
                        "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand");
            }
            if (b.low() instanceof Ast.Path || b.high() instanceof Ast.Path) {
                throw invalid(
                        "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
            }
            return new Part(
                    attribute((Ast.Path) b.operand(), e),
                    "BETWEEN",
                    List.of(
                            e.placeholders().value(((Ast.Value) b.low()).placeholder()),
                            e.placeholders().value(((Ast.Value) b.high()).placeholder())));
        }
        Ast.Function f = (Ast.Function) c;
        if (!f.function().equals("begins_with")) {
            throw invalid("Invalid operator used in KeyConditionExpression: " + f.function());
        }
        f.args().forEach(KeyCondition::noNesting);
        if (!(f.args().get(0) instanceof Ast.Path)) {
            throw invalid(
                    "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand");
        }
        if (f.args().get(1) instanceof Ast.Path) {
            throw invalid(
                    "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
        }
        return new Part(
                attribute((Ast.Path) f.args().get(0), e),
                "begins_with",
                List.of(e.placeholders().value(((Ast.Value) f.args().get(1)).placeholder())));
    }

    private static void noNesting(Operand o) {
        if (o instanceof Ast.Call || o instanceof Ast.Arith) {
            throw invalid("KeyConditionExpressions cannot contain nested operations");
        }
    }

    private static String attribute(Ast.Path path, ConditionExpression e) {
        List<Object> steps = e.steps(path);
        if (steps.size() != 1) {
            throw invalid("KeyConditionExpressions cannot have conditions on nested attributes");
        }
        return (String) steps.get(0);
    }

    private static String mirror(String operator) {
        switch (operator) {
            case "<":
                return ">";
            case "<=":
                return ">=";
            case ">":
                return "<";
            case ">=":
                return "<=";
            default:
                return operator.toUpperCase(Locale.ROOT);
        }
    }
}
