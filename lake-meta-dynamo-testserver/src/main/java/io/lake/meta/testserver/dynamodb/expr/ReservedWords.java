package io.lake.meta.testserver.dynamodb.expr;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * DynamoDB's reserved words (573 of them, from the developer guide's list). A bare attribute
 * name equal to one of them, in any case, is rejected; a {@code #placeholder} must be used.
 *
 * @since 0.1.0
 */
public final class ReservedWords {

    private static final Set<String> WORDS = load();

    private ReservedWords() {}

    public static boolean isReserved(String name) {
        return WORDS.contains(name.toUpperCase(Locale.ROOT));
    }

    /** How many words are reserved. */
    public static int count() {
        return WORDS.size();
    }

    private static Set<String> load() {
        try (InputStream in = ReservedWords.class.getResourceAsStream("reserved-words.txt")) {
            if (in == null) {
                throw new IllegalStateException("reserved-words.txt is missing from the classpath");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
            return Set.of(text.split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
