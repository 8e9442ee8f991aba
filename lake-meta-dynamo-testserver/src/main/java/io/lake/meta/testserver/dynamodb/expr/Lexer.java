package io.lake.meta.testserver.dynamodb.expr;

import java.util.ArrayList;
import java.util.List;

/** Splits an expression into tokens; an unexpected character becomes an INVALID token. */
final class Lexer {

    private Lexer() {}

    static List<Token> tokenize(String src) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            if (c == '#' || c == ':') {
                i++;
                while (i < n && isWordChar(src.charAt(i))) {
                    i++;
                }
                if (i == start + 1) {
                    tokens.add(new Token(Token.Kind.INVALID, String.valueOf(c), start, i));
                } else {
                    tokens.add(new Token(
                            c == '#' ? Token.Kind.NAME_PLACEHOLDER : Token.Kind.VALUE_PLACEHOLDER,
                            src.substring(start, i),
                            start,
                            i));
                }
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
                while (i < n && isWordChar(src.charAt(i))) {
                    i++;
                }
                tokens.add(new Token(Token.Kind.IDENT, src.substring(start, i), start, i));
            } else if (c >= '0' && c <= '9') {
                while (i < n && src.charAt(i) >= '0' && src.charAt(i) <= '9') {
                    i++;
                }
                tokens.add(new Token(Token.Kind.NUMBER, src.substring(start, i), start, i));
            } else if (c == '<' || c == '>') {
                i++;
                if (i < n && (src.charAt(i) == '=' || (c == '<' && src.charAt(i) == '>'))) {
                    i++;
                }
                tokens.add(new Token(Token.Kind.PUNCT, src.substring(start, i), start, i));
            } else if ("()[],.=+-".indexOf(c) >= 0) {
                i++;
                tokens.add(new Token(Token.Kind.PUNCT, String.valueOf(c), start, i));
            } else {
                i += Character.charCount(src.codePointAt(i));
                tokens.add(new Token(Token.Kind.INVALID, src.substring(start, i), start, i));
            }
        }
        tokens.add(new Token(Token.Kind.EOF, "<EOF>", n, n));
        return tokens;
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
}
