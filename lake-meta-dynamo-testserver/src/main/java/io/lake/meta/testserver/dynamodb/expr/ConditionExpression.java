package io.lake.meta.testserver.dynamodb.expr;

import io.lake.meta.testserver.dynamodb.expr.Ast.Between;
import io.lake.meta.testserver.dynamodb.expr.Ast.Call;
import io.lake.meta.testserver.dynamodb.expr.Ast.Compare;
import io.lake.meta.testserver.dynamodb.expr.Ast.Cond;
import io.lake.meta.testserver.dynamodb.expr.Ast.Function;
import io.lake.meta.testserver.dynamodb.expr.Ast.In;
import io.lake.meta.testserver.dynamodb.expr.Ast.Operand;
import io.lake.meta.testserver.dynamodb.expr.Ast.Path;
import io.lake.meta.testserver.dynamodb.expr.Ast.Value;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A parsed and checked condition, filter or key-condition expression, evaluated against items
 * with DynamoDB's semantics: values of different types never compare, a missing attribute makes
 * every comparison false except {@code <>}, which is then true.
 *
 * @since 0.1.0
 */
public final class ConditionExpression {

    private static final Set<String> TYPE_NAMES = Set.of("S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M");

    private final Cond root;
    private final Placeholders placeholders;
    private final String parameter;

    private ConditionExpression(Cond root, Placeholders placeholders, String parameter) {
        this.root = root;
        this.placeholders = placeholders;
        this.parameter = parameter;
    }

    /**
     * Parses, resolves placeholders and applies the static checks DynamoDB makes before reading
     * any item.
     *
     * @param parameter the request member, such as {@code ConditionExpression}, for messages
     */
    public static ConditionExpression parse(String source, String parameter, Placeholders placeholders) {
        Parser parser = Parser.of(source, parameter);
        Cond root = parser.parseCondition();
        parser.resolve(placeholders);
        ConditionExpression expression = new ConditionExpression(root, placeholders, parameter);
        expression.check(root);
        return expression;
    }

    /** The syntax tree, for the key-condition analysis. */
    public Cond root() {
        return root;
    }

    public Placeholders placeholders() {
        return placeholders;
    }

    /** The resolved steps of a path of this expression. */
    public List<Object> steps(Path path) {
        return Paths.resolve(path, placeholders);
    }

    /** Evaluates the condition; an absent item is an empty attribute map. */
    public boolean matches(@Nullable Map<String, AttrValue> item) {
        return eval(root, item == null ? Map.of() : item);
    }

    private DynamoException invalid(String detail) {
        return Errors.validation("Invalid " + parameter + ": " + detail);
    }

    // ---- static checks ------------------------------------------------------------------------

    private void check(Cond c) {
        if (c instanceof Ast.And) {
            check(((Ast.And) c).left());
            check(((Ast.And) c).right());
        } else if (c instanceof Ast.Or) {
            check(((Ast.Or) c).left());
            check(((Ast.Or) c).right());
        } else if (c instanceof Ast.Not) {
            check(((Ast.Not) c).operand());
        } else if (c instanceof Ast.Paren) {
            check(((Ast.Paren) c).inner());
        } else if (c instanceof Compare) {
            Compare cmp = (Compare) c;
            if (!cmp.operator().equals("=") && !cmp.operator().equals("<>")) {
                requireScalarConstant(cmp.operator(), cmp.left());
                requireScalarConstant(cmp.operator(), cmp.right());
            }
        } else if (c instanceof Between) {
            Between b = (Between) c;
            requireScalarConstant("BETWEEN", b.operand());
            requireScalarConstant("BETWEEN", b.low());
            requireScalarConstant("BETWEEN", b.high());
            if (b.low() instanceof Value && b.high() instanceof Value) {
                AttrValue low = constant(b.low());
                AttrValue high = constant(b.high());
                if (low.type() != high.type()) {
                    throw invalid("The BETWEEN operator requires same data type for lower and upper bounds; "
                            + "lower bound operand: AttributeValue: " + low + ", upper bound operand: AttributeValue: "
                            + high);
                }
                if (AttrValue.compareScalars(low, high) > 0) {
                    throw invalid(
                            "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
                                    + "lower bound operand: AttributeValue: " + low
                                    + ", upper bound operand: AttributeValue: " + high);
                }
            }
        } else if (c instanceof Function) {
            Function f = (Function) c;
            switch (f.function()) {
                case "begins_with":
                    for (Operand a : f.args()) {
                        if (a instanceof Value) {
                            AttrValue v = constant(a);
                            if (v.type() != AttrValue.Type.S && v.type() != AttrValue.Type.B) {
                                throw invalid("Incorrect operand type for operator or function; operator or function: "
                                        + "begins_with, operand type: " + v.type());
                            }
                        }
                    }
                    break;
                case "attribute_type": {
                    Operand t = f.args().get(1);
                    if (!(t instanceof Value)) {
                        throw invalid("Incorrect operand type for operator or function; operator or function: "
                                + "attribute_type, operand type: " + operandKind(t));
                    }
                    AttrValue v = constant(t);
                    if (v.type() != AttrValue.Type.S) {
                        throw invalid("Incorrect operand type for operator or function; operator or function: "
                                + "attribute_type, operand type: " + v.type());
                    }
                    if (!TYPE_NAMES.contains(v.s())) {
                        throw invalid("Invalid attribute type name found; type: " + v.s()
                                + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
                    }
                    break;
                }
                case "contains": {
                    Operand first = f.args().get(0);
                    Operand second = f.args().get(1);
                    if (first instanceof Path
                            && second instanceof Path
                            && steps((Path) first).equals(steps((Path) second))) {
                        throw invalid(
                                "The first operand must be distinct from the remaining operands for this operator "
                                        + "or function; operator: contains, first operand: "
                                        + Paths.render(steps((Path) first)));
                    }
                    break;
                }
                default:
                    break;
            }
        }
    }

    private static String operandKind(Operand o) {
        return o instanceof Path ? "PATH" : o instanceof Call ? "FUNCTION" : "VALUE";
    }

    private void requireScalarConstant(String operator, Operand o) {
        if (o instanceof Value) {
            AttrValue v = constant(o);
            if (!v.type().scalar()) {
                throw invalid("Incorrect operand type for operator or function; operator or function: " + operator
                        + ", operand type: " + v.type());
            }
        }
    }

    private AttrValue constant(Operand o) {
        return placeholders.value(((Value) o).placeholder());
    }

    // ---- evaluation ---------------------------------------------------------------------------

    private boolean eval(Cond c, Map<String, AttrValue> item) {
        if (c instanceof Ast.And) {
            return eval(((Ast.And) c).left(), item) && eval(((Ast.And) c).right(), item);
        }
        if (c instanceof Ast.Or) {
            return eval(((Ast.Or) c).left(), item) || eval(((Ast.Or) c).right(), item);
        }
        if (c instanceof Ast.Not) {
            return !eval(((Ast.Not) c).operand(), item);
        }
        if (c instanceof Ast.Paren) {
            return eval(((Ast.Paren) c).inner(), item);
        }
        if (c instanceof Compare) {
            Compare cmp = (Compare) c;
            AttrValue l = operand(cmp.left(), item);
            AttrValue r = operand(cmp.right(), item);
            switch (cmp.operator()) {
                case "=":
                    return l != null && l.equals(r);
                case "<>":
                    return l == null || !l.equals(r);
                default: {
                    if (l == null || r == null || !orderable(l, r)) {
                        return false;
                    }
                    int order = AttrValue.compareScalars(l, r);
                    switch (cmp.operator()) {
                        case "<":
                            return order < 0;
                        case "<=":
                            return order <= 0;
                        case ">":
                            return order > 0;
                        default:
                            return order >= 0;
                    }
                }
            }
        }
        if (c instanceof Between) {
            Between b = (Between) c;
            AttrValue v = operand(b.operand(), item);
            AttrValue low = operand(b.low(), item);
            AttrValue high = operand(b.high(), item);
            return v != null
                    && low != null
                    && high != null
                    && orderable(v, low)
                    && orderable(v, high)
                    && AttrValue.compareScalars(low, v) <= 0
                    && AttrValue.compareScalars(v, high) <= 0;
        }
        if (c instanceof In) {
            In in = (In) c;
            AttrValue v = operand(in.operand(), item);
            if (v == null) {
                return false;
            }
            for (Operand candidate : in.candidates()) {
                if (v.equals(operand(candidate, item))) {
                    return true;
                }
            }
            return false;
        }
        return function((Function) c, item);
    }

    private static boolean orderable(AttrValue a, AttrValue b) {
        return a.type() == b.type() && a.type().scalar();
    }

    private boolean function(Function f, Map<String, AttrValue> item) {
        List<Operand> args = f.args();
        switch (f.function()) {
            case "attribute_exists":
                return operand(args.get(0), item) != null;
            case "attribute_not_exists":
                return operand(args.get(0), item) == null;
            case "attribute_type": {
                AttrValue v = operand(args.get(0), item);
                return v != null && v.type().name().equals(constant(args.get(1)).s());
            }
            case "begins_with": {
                AttrValue a = operand(args.get(0), item);
                AttrValue b = operand(args.get(1), item);
                if (a == null || b == null || a.type() != b.type()) {
                    return false;
                }
                if (a.type() == AttrValue.Type.S) {
                    return a.s().startsWith(b.s());
                }
                if (a.type() == AttrValue.Type.B) {
                    byte[] whole = a.b();
                    byte[] prefix = b.b();
                    return whole.length >= prefix.length
                            && Arrays.equals(whole, 0, prefix.length, prefix, 0, prefix.length);
                }
                return false;
            }
            default: { // contains
                AttrValue a = operand(args.get(0), item);
                AttrValue b = operand(args.get(1), item);
                if (a == null || b == null) {
                    return false;
                }
                switch (a.type()) {
                    case S:
                        return b.type() == AttrValue.Type.S && a.s().contains(b.s());
                    case B:
                        return b.type() == AttrValue.Type.B && indexOf(a.b(), b.b()) >= 0;
                    case SS:
                    case NS:
                    case BS:
                        return b.type() == a.type().elementType()
                                && a.elements().contains(b);
                    case L:
                        return a.elements().contains(b);
                    default:
                        return false;
                }
            }
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private @Nullable AttrValue operand(Operand o, Map<String, AttrValue> item) {
        if (o instanceof Value) {
            return constant(o);
        }
        if (o instanceof Path) {
            return Paths.get(item, steps((Path) o));
        }
        Call call = (Call) o; // size
        AttrValue v = Paths.get(item, steps((Path) call.args().get(0)));
        if (v == null) {
            return null;
        }
        switch (v.type()) {
            case S:
                return AttrValue.n(BigDecimal.valueOf(v.s().getBytes(StandardCharsets.UTF_8).length));
            case B:
                return AttrValue.n(BigDecimal.valueOf(v.b().length));
            case M:
                return AttrValue.n(BigDecimal.valueOf(v.m().size()));
            case L:
            case SS:
            case NS:
            case BS:
                return AttrValue.n(BigDecimal.valueOf(v.elements().size()));
            default:
                return null;
        }
    }
}
