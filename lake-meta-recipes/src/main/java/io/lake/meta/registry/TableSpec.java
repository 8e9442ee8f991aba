package io.lake.meta.registry;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.internal.Checks;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a registration says about a table: where its data lives, its format, and user properties
 * (text keys and values, kept in the order given). Immutable; {@link #withProperty} and
 * {@link #withLocation} return changed copies.
 *
 * @since 0.1.0
 */
public final class TableSpec {

    /** The longest location. */
    public static final int MAX_LOCATION_LENGTH = 4096;

    /** The longest format name. */
    public static final int MAX_FORMAT_LENGTH = 64;

    private final String location;
    private final String format;
    private final Map<String, String> properties;

    private TableSpec(String location, String format, Map<String, String> properties) {
        this.location = location;
        this.format = format;
        this.properties = properties;
    }

    /**
     * A table at {@code location} in {@code format}, without properties.
     *
     * @throws InvalidArgumentException if the location or format is null, blank or too long
     */
    public static TableSpec of(String location, String format) {
        return new TableSpec(
                requireText("location", location, MAX_LOCATION_LENGTH),
                requireText("format", format, MAX_FORMAT_LENGTH),
                Map.of());
    }

    /**
     * This spec with {@code properties} instead of its own.
     *
     * @throws InvalidArgumentException if the map, a key or a value is null, or a key is empty
     */
    public TableSpec withProperties(Map<String, String> properties) {
        Checks.notNull(properties, "properties");
        Map<String, String> copy = new LinkedHashMap<>();
        properties.forEach((k, v) -> {
            if (k == null || k.isEmpty()) {
                throw new InvalidArgumentException("a property name must not be null or empty");
            }
            if (v == null) {
                throw new InvalidArgumentException("property '" + k + "' must not be null; leave it out instead");
            }
            copy.put(k, v);
        });
        return new TableSpec(location, format, Collections.unmodifiableMap(copy));
    }

    /** This spec with one property set (added, or replaced in place). */
    public TableSpec withProperty(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(properties);
        copy.put(name, value);
        return withProperties(copy);
    }

    /** This spec with another location. */
    public TableSpec withLocation(String location) {
        return new TableSpec(requireText("location", location, MAX_LOCATION_LENGTH), format, properties);
    }

    private static String requireText(String what, String text, int maxLength) {
        if (text == null || text.isBlank()) {
            throw new InvalidArgumentException("table " + what + " must not be null or blank");
        }
        if (text.length() > maxLength) {
            throw new InvalidArgumentException(
                    "table " + what + " is " + text.length() + " characters; the limit is " + maxLength);
        }
        return text;
    }

    /** Where the table's data lives. */
    public String location() {
        return location;
    }

    /** The table's format, such as {@code iceberg}. */
    public String format() {
        return format;
    }

    /** The user properties, unmodifiable, in the order given. */
    public Map<String, String> properties() {
        return properties;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (!(o instanceof TableSpec)) {
            return false;
        }
        TableSpec other = (TableSpec) o;
        return location.equals(other.location) && format.equals(other.format) && properties.equals(other.properties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(location, format, properties);
    }

    @Override
    public String toString() {
        return "TableSpec[location=" + location + ", format=" + format + ", properties=" + properties + "]";
    }
}
