package io.lake.meta.cli.kv;

import io.lake.meta.cli.UsageException;
import picocli.CommandLine.Option;

/** How an inspection command reads values from its arguments and prints its answer. */
final class FormatOptions {

    @Option(names = "--json", description = "Print one JSON object (ASCII, non-ASCII escaped) instead of text.")
    boolean json;

    @Option(names = "--hex", description = "Values are hex, in arguments and in output.")
    boolean hex;

    @Option(names = "--base64", description = "Values are base64, in arguments and in output.")
    boolean base64;

    /**
     * The chosen encoding; UTF-8 text unless {@code --hex} or {@code --base64}.
     *
     * @throws UsageException if both were given
     */
    ValueEncoding encoding() {
        if (hex && base64) {
            throw new UsageException("--hex and --base64 exclude each other: choose one");
        }
        return hex ? ValueEncoding.HEX : base64 ? ValueEncoding.BASE64 : ValueEncoding.UTF8;
    }
}
