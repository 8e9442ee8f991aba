package io.lake.meta.registry;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.internal.Checks;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A table's identity: a namespace and a name, each 1 to {@value #MAX_PART_LENGTH} characters from
 * {@code [A-Za-z0-9_.-]}, starting with a letter or digit. Its registration lives under
 * {@code tbl/<namespace>/<name>}; a namespace is never a prefix of another's keys ({@code ns1} and
 * {@code ns10} are apart), because the key separates them with {@code /}. Immutable.
 *
 * @since 0.1.0
 */
public final class TableId {

    /** The key family of every registration. */
    public static final String FAMILY = "tbl";

    /** The longest namespace or name. */
    public static final int MAX_PART_LENGTH = 128;

    private static final Pattern PART = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    private final String namespace;
    private final String name;

    private TableId(String namespace, String name) {
        this.namespace = namespace;
        this.name = name;
    }

    /**
     * The table {@code name} in {@code namespace}.
     *
     * @throws InvalidArgumentException if either part breaks the naming rule; the message names it
     */
    public static TableId of(String namespace, String name) {
        return new TableId(requireNamespace(namespace), requirePart("table name", name));
    }

    /**
     * The table a registration key names.
     *
     * @throws InvalidArgumentException if {@code key} is not {@code tbl/<namespace>/<name>} with valid parts
     */
    public static TableId fromKey(MetaKey key) {
        Checks.notNull(key, "registration key");
        String[] parts = key.rest().split("/", -1);
        if (!FAMILY.equals(key.family()) || parts.length != 2) {
            throw new InvalidArgumentException("key '" + key + "' is not a table registration key:"
                    + " registrations live under " + FAMILY + "/<namespace>/<name>");
        }
        return of(parts[0], parts[1]);
    }

    /**
     * Checks a namespace.
     *
     * @return {@code namespace}
     * @throws InvalidArgumentException if it breaks the naming rule
     */
    public static String requireNamespace(String namespace) {
        return requirePart("namespace", namespace);
    }

    /** The prefix of every registration in {@code namespace}: {@code tbl/<namespace>/}. */
    static KeyPrefix prefixOf(String namespace) {
        return KeyPrefix.of(FAMILY + "/" + requireNamespace(namespace) + "/");
    }

    /** The prefix of every registration: {@code tbl/}. */
    static KeyPrefix allTables() {
        return KeyPrefix.family(FAMILY);
    }

    private static String requirePart(String what, String text) {
        Checks.notNull(text, what);
        if (text.isEmpty()
                || text.length() > MAX_PART_LENGTH
                || !PART.matcher(text).matches()) {
            throw new InvalidArgumentException(what + " '" + text + "' is invalid: use 1 to " + MAX_PART_LENGTH
                    + " characters from [A-Za-z0-9_.-], starting with a letter or digit");
        }
        return text;
    }

    /** The table's namespace. */
    public String namespace() {
        return namespace;
    }

    /** The table's name within its namespace. */
    public String name() {
        return name;
    }

    /** The key of this table's registration. */
    public MetaKey key() {
        return MetaKey.of(FAMILY + "/" + namespace + "/" + name);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof TableId && ((TableId) o).namespace.equals(namespace) && ((TableId) o).name.equals(name);
    }

    @Override
    public int hashCode() {
        return 31 * namespace.hashCode() + name.hashCode();
    }

    /** {@code namespace/name}. */
    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
