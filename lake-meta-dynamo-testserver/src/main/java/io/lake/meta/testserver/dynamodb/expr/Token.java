package io.lake.meta.testserver.dynamodb.expr;

/** One lexical token of an expression, with its position in the source text. */
record Token(Kind kind, String text, int start, int end) {

    enum Kind {
        IDENT,
        NAME_PLACEHOLDER,
        VALUE_PLACEHOLDER,
        NUMBER,
        PUNCT,
        INVALID,
        EOF
    }

    boolean is(String punct) {
        return kind == Kind.PUNCT && text.equals(punct);
    }

    boolean isKeyword(String keyword) {
        return kind == Kind.IDENT && text.equalsIgnoreCase(keyword);
    }
}
