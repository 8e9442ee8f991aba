package io.lake.meta.postgres;

import io.lake.meta.InvalidArgumentException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A table name the store accepts: unquoted lower-case SQL identifiers (so the name means the same
 * quoted or not, and never needs escaping), optionally qualified by a schema.
 */
final class TableName {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final Optional<String> schema;
    private final String table;

    private TableName(Optional<String> schema, String table) {
        this.schema = schema;
        this.table = table;
    }

    static TableName parse(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length > 2
                || !IDENTIFIER.matcher(parts[parts.length - 1]).matches()
                || (parts.length == 2 && !IDENTIFIER.matcher(parts[0]).matches())) {
            throw new InvalidArgumentException("table must be a lower-case SQL name of letters, digits and '_' (at most"
                    + " 63, not starting with a digit), optionally as schema.table, got '" + name + "'");
        }
        return parts.length == 2
                ? new TableName(Optional.of(parts[0]), parts[1])
                : new TableName(Optional.empty(), parts[0]);
    }

    /**
     * The table as the server resolved it: its schema and name from the catalog, whatever spelling
     * (qualified or not, through which search_path) the store was given. Catalog names may hold any
     * character; {@link #sql()} quotes them.
     */
    static TableName resolved(String schema, String table) {
        return new TableName(Optional.of(schema), table);
    }

    /** The name as SQL text, each part quoted. */
    String sql() {
        return schema.map(s -> quoted(s) + ".").orElse("") + quoted(table);
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    @Override
    public String toString() {
        return schema.map(s -> s + ".").orElse("") + table;
    }
}
