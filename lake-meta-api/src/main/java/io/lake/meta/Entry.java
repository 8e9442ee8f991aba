package io.lake.meta;

/** A key and its value, as returned in a {@link Page}. */
public record Entry(MetaKey key, MetaValue value) {

    public Entry {
        Checks.notNull(key, "key");
        Checks.notNull(value, "value");
    }
}
