package io.lake.meta.cli;

import io.lake.meta.KeyPrefix;

/** A {@code --prefix} option's value ({@code scan}, {@code watch}, {@code copy}). */
public final class PrefixOption {

    private PrefixOption() {}

    /**
     * The option as a prefix; a bare family name gets the hint to add its slash.
     *
     * @throws UsageException if {@code prefix} names no family
     * @throws io.lake.meta.InvalidArgumentException if it is not a valid prefix
     */
    public static KeyPrefix parse(String prefix) {
        if (prefix != null && !prefix.isEmpty() && prefix.indexOf('/') < 0) {
            throw new UsageException("prefix '" + prefix + "' names no family: a prefix starts with a family and its"
                    + " slash; for every key of the family pass --prefix " + prefix + "/");
        }
        return KeyPrefix.of(prefix);
    }
}
