package io.lake.meta.copy;

import io.lake.meta.MetaStoreException;

/**
 * A copy that was refused before it wrote anything: the target holds keys under the copied
 * prefixes and {@code intoNonEmpty} was not given, the target holds the resume record of a copy
 * with another plan, the resume record is not one this version can read, or no prefix was named
 * and the source cannot list its families ({@link io.lake.meta.spi.KeyFamilies}).
 *
 * @since 0.1.0
 */
public final class CopyRefusedException extends MetaStoreException {

    private static final long serialVersionUID = 1L;

    CopyRefusedException(String message) {
        super(message);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
