package io.lake.meta.copy;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The two-way comparison behind {@link Verification}. Backends page in different orders (DynamoDB
 * shard by shard), so it does not merge two ordered streams: it reads each side page by page and
 * looks the page's keys up in the other side with one {@code getAll}, so memory holds one page.
 */
final class ContentComparison {

    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(256);

    private ContentComparison() {}

    static Verification compare(MetaStore source, MetaStore target, List<KeyPrefix> prefixes, int pageSize) {
        List<Verification.Difference> sample = new ArrayList<>();
        Digest sourceDigest = new Digest();
        long missing = 0;
        long differs = 0;
        for (KeyPrefix prefix : prefixes) {
            for (Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, pageSize));
                    request.isPresent(); ) {
                Page page = source.page(request.get());
                Map<MetaKey, MetaValue> held = lookUp(target, page);
                for (Entry entry : page.entries()) {
                    sourceDigest.add(entry);
                    MetaValue other = held.get(entry.key());
                    if (other == null) {
                        missing++;
                        note(sample, entry.key(), Verification.Kind.MISSING_IN_TARGET);
                    } else if (!other.equals(entry.value())) {
                        differs++;
                        note(sample, entry.key(), Verification.Kind.VALUE_DIFFERS);
                    }
                }
                request = request.get().next(page);
            }
        }
        Digest targetDigest = new Digest();
        long extra = 0;
        for (KeyPrefix prefix : prefixes) {
            for (Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, pageSize));
                    request.isPresent(); ) {
                Page page = target.page(request.get());
                Map<MetaKey, MetaValue> held = lookUp(source, page);
                for (Entry entry : page.entries()) {
                    targetDigest.add(entry);
                    if (!held.containsKey(entry.key())) {
                        extra++;
                        note(sample, entry.key(), Verification.Kind.EXTRA_IN_TARGET);
                    }
                }
                request = request.get().next(page);
            }
        }
        String sourceHex = sourceDigest.hex();
        // A second read of the source: a writer that changed it during the comparison shows here.
        boolean stable = sourceHex.equals(digestOf(source, prefixes, pageSize).hex());
        return new Verification(
                sourceDigest.count,
                targetDigest.count,
                sourceHex,
                targetDigest.hex(),
                missing,
                extra,
                differs,
                stable,
                sample);
    }

    private static Digest digestOf(MetaStore store, List<KeyPrefix> prefixes, int pageSize) {
        Digest digest = new Digest();
        for (KeyPrefix prefix : prefixes) {
            PrefixCursor cursor = new PrefixCursor(store, prefix, pageSize);
            for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
                digest.add(entry);
            }
        }
        return digest;
    }

    private static Map<MetaKey, MetaValue> lookUp(MetaStore store, Page page) {
        return page.entries().isEmpty()
                ? Map.of()
                : store.getAll(page.entries().stream().map(Entry::key).toList());
    }

    private static void note(List<Verification.Difference> sample, MetaKey key, Verification.Kind kind) {
        if (sample.size() < Verification.SAMPLE_LIMIT) {
            sample.add(new Verification.Difference(key, kind));
        }
    }

    /**
     * The content digest, independent of the order entries arrive in: the SHA-256 of each entry
     * (key length, key, value length, value) summed modulo 2^256, then SHA-256 of the entry count
     * and that sum. Keys are unique within a store, so equal contents give equal digests on every
     * backend.
     */
    static final class Digest {
        private final MessageDigest entryHash = sha256();
        private BigInteger sum = BigInteger.ZERO;
        long count;

        void add(Entry entry) {
            byte[] key = entry.key().utf8();
            byte[] value = entry.value().toByteArray();
            entryHash.update(ByteBuffer.allocate(4).putInt(key.length).array());
            entryHash.update(key);
            entryHash.update(ByteBuffer.allocate(4).putInt(value.length).array());
            entryHash.update(value);
            sum = sum.add(new BigInteger(1, entryHash.digest())).mod(MODULUS);
            count++;
        }

        String hex() {
            MessageDigest total = sha256();
            total.update(ByteBuffer.allocate(8).putLong(count).array());
            byte[] sumBytes = sum.toByteArray();
            byte[] fixed = new byte[32];
            int length = Math.min(sumBytes.length, 32);
            System.arraycopy(sumBytes, sumBytes.length - length, fixed, 32 - length, length);
            total.update(fixed);
            return HexFormat.of().formatHex(total.digest());
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
