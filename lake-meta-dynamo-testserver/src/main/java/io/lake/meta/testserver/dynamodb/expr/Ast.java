package io.lake.meta.testserver.dynamodb.expr;

import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The syntax tree of condition, key-condition, filter, projection and update expressions.
 *
 * @since 0.1.0
 */
public final class Ast {

    private Ast() {}

    /** Something that yields an attribute value (or nothing) when evaluated against an item. */
    public sealed interface Operand permits Path, Value, Call, Arith {}

    /** A condition: yields true or false against an item. */
    public sealed interface Cond permits Compare, Between, In, And, Or, Not, Function, Paren {}

    /**
     * One step of a document path: a name (possibly a {@code #placeholder}, resolved on use) or a
     * list index.
     */
    public record Step(@Nullable String name, int index) { // name null: a list index
        public boolean isIndex() {
            return name == null;
        }
    }

    /** A document path such as {@code a.#b[2]}. */
    public record Path(List<Step> steps) implements Operand {}

    /** An expression attribute value reference such as {@code :v}. */
    public record Value(String placeholder) implements Operand {}

    /** A function used as an operand: {@code size}, {@code if_not_exists}, {@code list_append}. */
    public record Call(String function, List<Operand> args) implements Operand {}

    /** {@code a + b} or {@code a - b} in a SET action. */
    public record Arith(char operator, Operand left, Operand right) implements Operand {}

    public record Compare(String operator, Operand left, Operand right) implements Cond {}

    public record Between(Operand operand, Operand low, Operand high) implements Cond {}

    public record In(Operand operand, List<Operand> candidates) implements Cond {}

    public record And(Cond left, Cond right) implements Cond {}

    public record Or(Cond left, Cond right) implements Cond {}

    public record Not(Cond operand) implements Cond {}

    /** A boolean function: attribute_exists, attribute_not_exists, attribute_type, begins_with, contains. */
    public record Function(String function, List<Operand> args) implements Cond {}

    /** Parentheses, kept so that redundant double parentheses can be rejected as DynamoDB does. */
    public record Paren(Cond inner) implements Cond {}

    /** The parts of an update expression, each clause in source order. */
    public record Update(List<SetAction> sets, List<Path> removes, List<SetChange> adds, List<SetChange> deletes) {}

    public record SetAction(Path path, Operand value) {}

    /** An ADD or DELETE action: a path and the value placeholder to add or delete. */
    public record SetChange(Path path, Value value) {}

    /** Renders a path the way DynamoDB's messages do, such as {@code [a, b, [2]]}, names resolved. */
    static String render(List<String> resolvedSteps) {
        return resolvedSteps.stream().collect(Collectors.joining(", ", "[", "]"));
    }
}
