package io.lake.meta.copy;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The two-way comparison behind {@link Verification}: a merge of both stores' ordered pages. */
final class ContentComparison {

    private ContentComparison() {
    }

    static Verification compare(MetaStore source, MetaStore target, List<KeyPrefix> prefixes, int pageSize) {
        MessageDigest sourceDigest = sha256();
        MessageDigest targetDigest = sha256();
        long sourceKeys = 0;
        long targetKeys = 0;
        long missing = 0;
        long extra = 0;
        long differs = 0;
        List<Verification.Difference> sample = new ArrayList<>();
        for (KeyPrefix prefix : prefixes) {
            PrefixCursor sourceCursor = new PrefixCursor(source, prefix, pageSize);
            PrefixCursor targetCursor = new PrefixCursor(target, prefix, pageSize);
            Entry fromSource = sourceCursor.next();
            Entry fromTarget = targetCursor.next();
            while (fromSource != null || fromTarget != null) {
                int order = fromSource == null ? 1 : fromTarget == null ? -1 : fromSource.key().compareTo(fromTarget.key());
                Verification.Kind kind = null;
                MetaKey key;
                if (order <= 0) {
                    digest(sourceDigest, fromSource);
                    sourceKeys++;
                }
                if (order >= 0) {
                    digest(targetDigest, fromTarget);
                    targetKeys++;
                }
                if (order < 0) {
                    key = fromSource.key();
                    kind = Verification.Kind.MISSING_IN_TARGET;
                    missing++;
                } else if (order > 0) {
                    key = fromTarget.key();
                    kind = Verification.Kind.EXTRA_IN_TARGET;
                    extra++;
                } else {
                    key = fromSource.key();
                    if (!fromSource.value().equals(fromTarget.value())) {
                        kind = Verification.Kind.VALUE_DIFFERS;
                        differs++;
                    }
                }
                if (kind != null && sample.size() < Verification.SAMPLE_LIMIT) {
                    sample.add(new Verification.Difference(key, kind));
                }
                if (order <= 0) {
                    fromSource = sourceCursor.next();
                }
                if (order >= 0) {
                    fromTarget = targetCursor.next();
                }
            }
        }
        String sourceHex = hex(sourceDigest);
        // A second read of the source: a writer that changed it during the comparison shows here.
        boolean stable = sourceHex.equals(digestOf(source, prefixes, pageSize));
        return new Verification(sourceKeys, targetKeys, sourceHex, hex(targetDigest), missing, extra, differs, stable,
                sample);
    }

    static String digestOf(MetaStore store, List<KeyPrefix> prefixes, int pageSize) {
        MessageDigest digest = sha256();
        for (KeyPrefix prefix : prefixes) {
            PrefixCursor cursor = new PrefixCursor(store, prefix, pageSize);
            for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
                digest(digest, entry);
            }
        }
        return hex(digest);
    }

    private static void digest(MessageDigest digest, @Nullable Entry entry) {
        byte[] key = entry.key().utf8();
        byte[] value = entry.value().toByteArray();
        digest.update(ByteBuffer.allocate(4).putInt(key.length).array());
        digest.update(key);
        digest.update(ByteBuffer.allocate(4).putInt(value.length).array());
        digest.update(value);
    }

    private static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
