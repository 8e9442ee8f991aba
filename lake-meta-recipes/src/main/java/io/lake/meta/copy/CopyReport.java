package io.lake.meta.copy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import java.util.List;

/**
 * What a copy did, across the runs that resumed it, and the verification that ended it.
 *
 * @param prefixes the prefixes copied, in the order copied
 * @param pages source pages written
 * @param copied keys created in the target
 * @param alreadyEqual keys the target already held with the same bytes (only with {@code intoNonEmpty})
 * @param differing keys the target held with other bytes, left unchanged (only with {@code intoNonEmpty})
 * @param differingSample the first differing keys, at most {@link Verification#SAMPLE_LIMIT}
 * @param resumed whether this run went on from a resume record an earlier run left
 * @param verification the comparison of source and target after the copy
 * @since 0.1.0
 */
public record CopyReport(
        List<KeyPrefix> prefixes,
        long pages,
        long copied,
        long alreadyEqual,
        long differing,
        List<MetaKey> differingSample,
        boolean resumed,
        Verification verification) {

    public CopyReport {
        prefixes = List.copyOf(prefixes);
        differingSample = List.copyOf(differingSample);
    }
}
