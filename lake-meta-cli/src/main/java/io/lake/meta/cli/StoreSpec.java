package io.lake.meta.cli;

import io.lake.meta.MetaStore;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Which store a command opens, written {@code SCHEME:LOCATION} (for example {@code rocks:./meta}).
 * A new backend adds its scheme to {@link #SCHEMES} and its options to {@link StoreOptions}.
 */
interface StoreSpec {

    /** Every scheme {@code --store} accepts, with the parser of its location. */
    Map<String, Function<String, StoreSpec>> SCHEMES = Map.of("rocks", RocksStoreSpec::parse);

    /** How the scheme is written, for messages. */
    String SYNTAX = "rocks:DIR";

    /**
     * Opens the store.
     *
     * @param createIfMissing whether to create a store that does not exist yet
     * @throws UsageException if the spec names no usable store and {@code createIfMissing} is false
     * @throws StoreOpenException if the backend refused to open it
     */
    MetaStore open(boolean createIfMissing);

    /**
     * Parses {@code SCHEME:LOCATION}.
     *
     * @throws TypeConversionException with a one-line explanation when the text is not a store spec
     */
    static StoreSpec parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new TypeConversionException("'" + text + "' names no store scheme: write " + SYNTAX
                    + ", for example rocks:./meta-db");
        }
        String scheme = text.substring(0, colon);
        Function<String, StoreSpec> parser = SCHEMES.get(scheme);
        if (parser == null) {
            throw new TypeConversionException("unknown store scheme '" + scheme + "' in '" + text
                    + "': the supported scheme is " + SYNTAX);
        }
        String location = text.substring(colon + 1);
        if (location.isBlank()) {
            throw new TypeConversionException("'" + text + "' names no location: write " + SYNTAX);
        }
        return parser.apply(location);
    }

    /** Lets picocli parse {@code --store}. */
    final class Converter implements ITypeConverter<StoreSpec> {
        @Override
        public StoreSpec convert(String value) {
            return parse(value);
        }
    }
}
