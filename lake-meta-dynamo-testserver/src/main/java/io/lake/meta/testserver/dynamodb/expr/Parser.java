package io.lake.meta.testserver.dynamodb.expr;

import io.lake.meta.testserver.dynamodb.expr.Ast.Arith;
import io.lake.meta.testserver.dynamodb.expr.Ast.Between;
import io.lake.meta.testserver.dynamodb.expr.Ast.Call;
import io.lake.meta.testserver.dynamodb.expr.Ast.Compare;
import io.lake.meta.testserver.dynamodb.expr.Ast.Cond;
import io.lake.meta.testserver.dynamodb.expr.Ast.Function;
import io.lake.meta.testserver.dynamodb.expr.Ast.In;
import io.lake.meta.testserver.dynamodb.expr.Ast.Operand;
import io.lake.meta.testserver.dynamodb.expr.Ast.Path;
import io.lake.meta.testserver.dynamodb.expr.Ast.SetAction;
import io.lake.meta.testserver.dynamodb.expr.Ast.SetChange;
import io.lake.meta.testserver.dynamodb.expr.Ast.Step;
import io.lake.meta.testserver.dynamodb.expr.Ast.Value;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A recursive-descent parser for DynamoDB's expression languages. Precedence, from loosest to
 * tightest: OR, AND, NOT, then parentheses, functions, BETWEEN, IN and the comparators. Keywords
 * are case-insensitive; function names are case-sensitive.
 *
 * <p>Placeholder references are collected while parsing and checked after the syntax was
 * accepted, so a syntax error wins over an undefined placeholder, as in DynamoDB.
 */
final class Parser {

    static final Set<String> CONDITION_FUNCTIONS =
            Set.of("attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains");
    private static final Set<String> COMPARATORS = Set.of("=", "<>", "<", "<=", ">", ">=");

    private final String source;
    private final String parameter;
    private final List<Token> tokens;
    private final List<String> referencedNames = new ArrayList<>();
    private final List<String> referencedValues = new ArrayList<>();
    private final List<String> bareNames = new ArrayList<>();
    private int pos;

    private Parser(String source, String parameter) {
        this.source = source;
        this.parameter = parameter;
        this.tokens = Lexer.tokenize(source);
    }

    /** DynamoDB's limit on the length of one expression string. */
    static final int MAX_EXPRESSION_BYTES = 4096;

    static Parser of(String source, String parameter) {
        if (source.isEmpty()) {
            throw Errors.validation("Invalid " + parameter + ": The expression can not be empty;");
        }
        int bytes = source.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_EXPRESSION_BYTES) {
            throw Errors.validation("Invalid " + parameter + ": Expression size has exceeded the maximum allowed size; "
                    + "expression size: " + bytes);
        }
        return new Parser(source, parameter);
    }

    DynamoException error(String detail) {
        return Errors.validation("Invalid " + parameter + ": " + detail);
    }

    /**
     * Checks, once the syntax was accepted, bare names against the reserved words, then the
     * collected placeholder references, and marks them used.
     */
    void resolve(Placeholders placeholders) {
        for (String name : bareNames) {
            if (ReservedWords.isReserved(name)) {
                throw error("Attribute name is a reserved keyword; reserved keyword: " + name);
            }
        }
        for (String name : referencedNames) {
            if (!placeholders.hasName(name)) {
                throw error("An expression attribute name used in the document path is not defined; attribute name: "
                        + name);
            }
        }
        for (String value : referencedValues) {
            if (!placeholders.hasValue(value)) {
                throw error(
                        "An expression attribute value used in expression is not defined; attribute value: " + value);
            }
        }
        referencedNames.forEach(placeholders::markName);
        referencedValues.forEach(placeholders::markValue);
    }

    // ---- conditions ---------------------------------------------------------------------------

    Cond parseCondition() {
        Cond c = parseOr();
        expectEnd();
        return c;
    }

    private Cond parseOr() {
        Cond left = parseAnd();
        while (peek().isKeyword("OR")) {
            next();
            left = new Ast.Or(left, parseAnd());
        }
        return left;
    }

    private Cond parseAnd() {
        Cond left = parseNot();
        while (peek().isKeyword("AND")) {
            next();
            left = new Ast.And(left, parseNot());
        }
        return left;
    }

    private Cond parseNot() {
        if (peek().isKeyword("NOT")) {
            next();
            return new Ast.Not(parseNot());
        }
        return parsePrimary();
    }

    private Cond parsePrimary() {
        Token t = peek();
        if (t.is("(")) {
            next();
            Cond inner = parseOr();
            expect(")");
            if (inner instanceof Ast.Paren) {
                throw error("The expression has redundant parentheses;");
            }
            return new Ast.Paren(inner);
        }
        if (t.kind() == Token.Kind.IDENT && peekAt(1).is("(") && CONDITION_FUNCTIONS.contains(t.text())) {
            next();
            List<Operand> args = parseArguments();
            checkConditionFunction(t.text(), args);
            Token after = peek();
            if (isComparator(after) || after.isKeyword("BETWEEN") || after.isKeyword("IN")) {
                throw error("The function is not allowed to be used this way in an expression; function: " + t.text());
            }
            return new Function(t.text(), args);
        }
        Operand left = parseOperand();
        Token op = peek();
        if (isComparator(op)) {
            next();
            return new Compare(op.text(), left, parseOperand());
        }
        if (op.isKeyword("BETWEEN")) {
            next();
            Operand low = parseOperand();
            if (!peek().isKeyword("AND")) {
                throw syntaxError(peek());
            }
            next();
            return new Between(left, low, parseOperand());
        }
        if (op.isKeyword("IN")) {
            next();
            expect("(");
            List<Operand> candidates = new ArrayList<>();
            candidates.add(parseOperand());
            while (peek().is(",")) {
                next();
                candidates.add(parseOperand());
            }
            expect(")");
            if (candidates.size() + 1 > 100) {
                throw error("The IN operator is provided with too many operands; number of operands: "
                        + (candidates.size() + 1));
            }
            return new In(left, candidates);
        }
        if (left instanceof Call) {
            throw error("The function is not allowed to be used this way in an expression; function: "
                    + ((Call) left).function());
        }
        throw syntaxError(op);
    }

    private void checkConditionFunction(String function, List<Operand> args) {
        int expected = function.equals("attribute_exists") || function.equals("attribute_not_exists") ? 1 : 2;
        checkArity(function, args, expected);
        if (expected == 1 && !(args.get(0) instanceof Path)) {
            throw error("Operator or function requires a document path; operator or function: " + function);
        }
    }

    private void checkArity(String function, List<Operand> args, int expected) {
        if (args.size() != expected) {
            throw error("Incorrect number of operands for operator or function; operator or function: " + function
                    + ", number of operands: " + args.size());
        }
    }

    private static boolean isComparator(Token t) {
        return t.kind() == Token.Kind.PUNCT && COMPARATORS.contains(t.text());
    }

    /** An operand of a condition: a path, a value or size(path). */
    private Operand parseOperand() {
        Token t = peek();
        if (t.kind() == Token.Kind.VALUE_PLACEHOLDER) {
            next();
            referencedValues.add(t.text());
            return new Value(t.text());
        }
        if (t.kind() == Token.Kind.IDENT && peekAt(1).is("(")) {
            next();
            String function = t.text();
            if (CONDITION_FUNCTIONS.contains(function)) {
                parseArguments();
                throw error("The function is not allowed to be used this way in an expression; function: " + function);
            }
            if (function.equals("if_not_exists") || function.equals("list_append")) {
                throw error("The function is not allowed in a condition expression; function: " + function);
            }
            if (!function.equals("size")) {
                throw error("Invalid function name; function: " + function);
            }
            List<Operand> args = parseArguments();
            checkArity(function, args, 1);
            if (!(args.get(0) instanceof Path)) {
                throw error("Operator or function requires a document path; operator or function: size");
            }
            return new Call(function, args);
        }
        return parsePath();
    }

    private List<Operand> parseArguments() {
        expect("(");
        List<Operand> args = new ArrayList<>();
        if (!peek().is(")")) {
            args.add(parseOperand());
            while (peek().is(",")) {
                next();
                args.add(parseOperand());
            }
        }
        expect(")");
        return args;
    }

    Path parsePath() {
        List<Step> steps = new ArrayList<>();
        steps.add(parseName());
        while (true) {
            Token t = peek();
            if (t.is(".")) {
                next();
                steps.add(parseName());
            } else if (t.is("[")) {
                next();
                Token index = next();
                if (index.kind() != Token.Kind.NUMBER) {
                    throw syntaxError(index);
                }
                expect("]");
                try {
                    steps.add(new Step(null, Integer.parseInt(index.text())));
                } catch (NumberFormatException e) {
                    throw syntaxError(index);
                }
            } else {
                return new Path(steps);
            }
        }
    }

    private Step parseName() {
        Token t = next();
        if (t.kind() == Token.Kind.NAME_PLACEHOLDER) {
            referencedNames.add(t.text());
            return new Step(t.text(), -1);
        }
        if (t.kind() != Token.Kind.IDENT) {
            throw syntaxError(t);
        }
        bareNames.add(t.text());
        return new Step(t.text(), -1);
    }

    // ---- projection ---------------------------------------------------------------------------

    List<Path> parseProjection() {
        List<Path> paths = new ArrayList<>();
        paths.add(parsePath());
        while (peek().is(",")) {
            next();
            paths.add(parsePath());
        }
        expectEnd();
        return paths;
    }

    // ---- update -------------------------------------------------------------------------------

    Ast.Update parseUpdate() {
        List<SetAction> sets = new ArrayList<>();
        List<Path> removes = new ArrayList<>();
        List<SetChange> adds = new ArrayList<>();
        List<SetChange> deletes = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        if (peek().kind() == Token.Kind.EOF) {
            throw error("The expression can not be empty;");
        }
        while (peek().kind() != Token.Kind.EOF) {
            Token clause = next();
            String keyword = clause.kind() == Token.Kind.IDENT ? clause.text().toUpperCase(java.util.Locale.ROOT) : "";
            if (!Set.of("SET", "REMOVE", "ADD", "DELETE").contains(keyword)) {
                throw syntaxError(clause);
            }
            if (!seen.add(keyword)) {
                throw error("The \"" + keyword + "\" section can only be used once in an update expression;");
            }
            do {
                switch (keyword) {
                    case "SET": {
                        Path path = parsePath();
                        expect("=");
                        sets.add(new SetAction(path, parseSetValue()));
                        break;
                    }
                    case "REMOVE":
                        removes.add(parsePath());
                        break;
                    default: {
                        Path path = parsePath();
                        Token v = next();
                        if (v.kind() != Token.Kind.VALUE_PLACEHOLDER) {
                            throw syntaxError(v);
                        }
                        referencedValues.add(v.text());
                        (keyword.equals("ADD") ? adds : deletes).add(new SetChange(path, new Value(v.text())));
                        break;
                    }
                }
            } while (consumeIf(","));
        }
        return new Ast.Update(sets, removes, adds, deletes);
    }

    private Operand parseSetValue() {
        Operand left = parseSetOperand();
        Token t = peek();
        if (t.is("+") || t.is("-")) {
            next();
            return new Arith(t.text().charAt(0), left, parseSetOperand());
        }
        return left;
    }

    private Operand parseSetOperand() {
        Token t = peek();
        if (t.kind() == Token.Kind.VALUE_PLACEHOLDER) {
            next();
            referencedValues.add(t.text());
            return new Value(t.text());
        }
        if (t.kind() == Token.Kind.IDENT && peekAt(1).is("(")) {
            next();
            String function = t.text();
            if (function.equals("if_not_exists")) {
                expect("(");
                Operand path = parsePath();
                expect(",");
                Operand fallback = parseSetValue();
                expect(")");
                return new Call(function, List.of(path, fallback));
            }
            if (function.equals("list_append")) {
                expect("(");
                Operand first = parseSetValue();
                expect(",");
                Operand second = parseSetValue();
                expect(")");
                return new Call(function, List.of(first, second));
            }
            if (CONDITION_FUNCTIONS.contains(function) || function.equals("size")) {
                throw error("The function is not allowed in an update expression; function: " + function);
            }
            throw error("Invalid function name; function: " + function);
        }
        return parsePath();
    }

    // ---- tokens -------------------------------------------------------------------------------

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peekAt(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Token.Kind.EOF) {
            pos++;
        }
        return t;
    }

    private boolean consumeIf(String punct) {
        if (peek().is(punct)) {
            next();
            return true;
        }
        return false;
    }

    private void expect(String punct) {
        Token t = next();
        if (!t.is(punct)) {
            throw syntaxError(t);
        }
    }

    private void expectEnd() {
        if (peek().kind() != Token.Kind.EOF) {
            throw syntaxError(peek());
        }
    }

    /** DynamoDB's syntax error: the offending token, and the text from the token before it to the one after. */
    private DynamoException syntaxError(Token t) {
        int index = tokens.indexOf(t);
        Token before = index > 0 ? tokens.get(index - 1) : t;
        Token after =
                index + 1 < tokens.size() && tokens.get(index + 1).kind() != Token.Kind.EOF ? tokens.get(index + 1) : t;
        String near = source.substring(before.start(), Math.max(before.start(), after.end()));
        return error("Syntax error; token: \"" + t.text() + "\", near: \"" + near + "\"");
    }
}
