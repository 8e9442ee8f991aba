package io.lake.meta.cli.store;

import io.lake.meta.MetaStore;
import io.lake.meta.cli.StoreOpenException;
import io.lake.meta.cli.UsageException;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Which store a command opens, written {@code SCHEME:LOCATION} (for example {@code rocks:./meta}
 * or {@code dynamo:lake-meta} or {@code postgres:jdbc:postgresql://db/meta}). A new backend adds its scheme to {@link #SCHEMES} and its options
 * to {@link StoreOptions}.
 */
public interface StoreSpec {

    /** Every scheme {@code --store} accepts, with the parser of its location. */
    @SuppressWarnings("ClassInitializationDeadlock") // method references: initializing this initializes no spec
    Map<String, Function<String, StoreSpec>> SCHEMES = Map.of(
            "rocks", RocksStoreSpec::parse,
            "dynamo", DynamoStoreSpec::parse,
            "postgres", PostgresStoreSpec::parse);

    /** How the schemes are written, for messages. */
    String SYNTAX = "rocks:DIR, dynamo:TABLE or postgres:JDBC-URL";

    /**
     * This spec with the DynamoDB connection options {@code --endpoint} and {@code --region}
     * (each null when absent). Only {@code dynamo:} takes them; every other scheme refuses them.
     *
     * @throws UsageException if the scheme takes no such option, or a value is malformed
     */
    default StoreSpec withConnection(@Nullable String endpoint, @Nullable String region) {
        if (endpoint != null || region != null) {
            throw new UsageException((endpoint != null ? "--endpoint" : "--region")
                    + " applies only to a dynamo:TABLE store, not to " + this.text()
                    + ": leave out --endpoint and --region");
        }
        return this;
    }

    /** The spec as the user would write it, for messages. */
    String text();

    /**
     * Opens the store.
     *
     * @param createIfMissing whether to create a store that does not exist yet
     * @throws UsageException if the spec names no usable store and {@code createIfMissing} is false
     * @throws StoreOpenException if the backend refused to open it
     */
    MetaStore open(boolean createIfMissing);

    /**
     * Opens the existing store for the inspection commands, which only read: on {@code rocks:}
     * a read-only view that works while another process (a service) holds the store and takes
     * no lock of its own; elsewhere the store as {@link #open(boolean) open(false)} opens it.
     *
     * @throws UsageException if the spec names no usable store
     * @throws StoreOpenException if the backend refused to open it
     */
    default MetaStore openReadOnly() {
        return open(false);
    }

    /**
     * Parses {@code SCHEME:LOCATION}.
     *
     * @throws TypeConversionException with a one-line explanation when the text is not a store spec
     */
    static StoreSpec parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new TypeConversionException(
                    "'" + text + "' names no store scheme: write " + SYNTAX + ", for example rocks:./meta-db");
        }
        String scheme = text.substring(0, colon);
        Function<String, StoreSpec> parser = SCHEMES.get(scheme);
        if (parser == null) {
            throw new TypeConversionException(
                    "unknown store scheme '" + scheme + "' in '" + text + "': the supported schemes are " + SYNTAX);
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
