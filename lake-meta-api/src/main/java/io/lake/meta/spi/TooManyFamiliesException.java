package io.lake.meta.spi;

import io.lake.meta.MetaStoreException;

/**
 * A store holds more than {@link KeyFamilies#MAX_FAMILIES} families, so {@link KeyFamilies#families()}
 * refuses to answer a partial list: name the prefixes instead.
 *
 * @since 0.1.0
 */
public final class TooManyFamiliesException extends MetaStoreException {

    private static final long serialVersionUID = 1L;

    /** @param description the store, for the message */
    public TooManyFamiliesException(String description) {
        super(description + " holds more than " + KeyFamilies.MAX_FAMILIES + " key families; list them by the"
                + " prefixes you know instead");
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
