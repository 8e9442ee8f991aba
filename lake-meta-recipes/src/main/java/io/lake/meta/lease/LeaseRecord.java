package io.lake.meta.lease;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.internal.Checks;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The JSON record stored under a lease key:
 *
 * <pre>{@code
 * {"holder":"node-a","epoch":7,"expiresAtMillis":1767225600000,"nonce":"3f0c..."}
 * }</pre>
 *
 * <ul>
 *   <li>{@code holder}: the candidate id holding the lease; absent in a vacant record (written on
 *       resign, so the epoch survives the resignation).</li>
 *   <li>{@code epoch}: the term, incremented by every acquisition and takeover, kept by renewals.
 *       A legacy record without it reads as epoch 0.</li>
 *   <li>{@code expiresAtMillis}: the writer's wall clock (epoch millis) plus the lease duration;
 *       other candidates judge expiry by their own wall clock. Required when a holder is present.</li>
 *   <li>{@code nonce}: unique per write, so every record's bytes are unique and a writer can
 *       recognise its own write after a lost answer. Optional when reading.</li>
 * </ul>
 *
 * <p>Unknown fields are ignored, so later versions may add fields. Immutable and thread-safe.
 *
 * @since 0.1.0
 */
public final class LeaseRecord {

    /** Strict on what would make a record ambiguous (duplicate fields, trailing data), lenient on unknown fields. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final @Nullable String holder;
    private final long epoch;
    private final long expiresAtMillis;
    private final @Nullable String nonce;

    private LeaseRecord(@Nullable String holder, long epoch, long expiresAtMillis, @Nullable String nonce) {
        this.holder = holder;
        this.epoch = Checks.notNegative(epoch, "epoch");
        this.expiresAtMillis = expiresAtMillis;
        this.nonce = nonce;
    }

    /**
     * A record held by {@code holder} in term {@code epoch} until {@code expiresAtMillis}.
     *
     * @throws InvalidArgumentException if {@code holder} or {@code nonce} is null, {@code holder}
     *     is empty (such a record would read back as corrupt) or {@code epoch} is negative
     */
    public static LeaseRecord held(String holder, long epoch, long expiresAtMillis, String nonce) {
        return new LeaseRecord(requireHolder(holder), epoch, expiresAtMillis, Checks.notNull(nonce, "nonce"));
    }

    /**
     * A record nobody holds that remembers {@code epoch}, so the next acquisition goes past it.
     *
     * @throws InvalidArgumentException if {@code nonce} is null or {@code epoch} is negative
     */
    public static LeaseRecord vacant(long epoch, long atMillis, String nonce) {
        return new LeaseRecord(null, epoch, atMillis, Checks.notNull(nonce, "nonce"));
    }

    /**
     * Reads a stored record.
     *
     * @throws CorruptLeaseRecordException if the bytes are not a lease record; the message says why
     * @throws InvalidArgumentException if an argument is null
     */
    public static LeaseRecord decode(MetaKey leaseKey, MetaValue value) {
        Checks.notNull(leaseKey, "lease key");
        Checks.notNull(value, "lease record value");
        JsonNode root;
        try {
            root = JSON.readTree(value.toByteArray());
        } catch (JsonProcessingException e) {
            throw new CorruptLeaseRecordException(leaseKey, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CorruptLeaseRecordException(leaseKey, "unreadable: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new CorruptLeaseRecordException(leaseKey, "not a JSON object");
        }
        String holder = null;
        JsonNode holderNode = root.get("holder");
        if (holderNode != null && !holderNode.isNull()) {
            if (!holderNode.isTextual() || holderNode.asText().isEmpty()) {
                throw new CorruptLeaseRecordException(leaseKey, "holder is not a non-empty string");
            }
            holder = holderNode.asText();
        }
        long epoch = 0;
        JsonNode epochNode = root.get("epoch");
        if (epochNode != null && !epochNode.isNull()) {
            if (!epochNode.isIntegralNumber() || !epochNode.canConvertToLong() || epochNode.asLong() < 0) {
                throw new CorruptLeaseRecordException(
                        leaseKey, "epoch " + epochNode + " is not an integer from 0 to " + Long.MAX_VALUE);
            }
            epoch = epochNode.asLong();
        }
        long expiresAt = 0;
        JsonNode expiryNode = root.get("expiresAtMillis");
        if (expiryNode != null && !expiryNode.isNull()) {
            if (!expiryNode.isIntegralNumber() || !expiryNode.canConvertToLong()) {
                throw new CorruptLeaseRecordException(
                        leaseKey, "expiresAtMillis " + expiryNode + " is not a 64-bit integer");
            }
            expiresAt = expiryNode.asLong();
        } else if (holder != null) {
            throw new CorruptLeaseRecordException(leaseKey, "holder '" + holder + "' without expiresAtMillis");
        }
        JsonNode nonceNode = root.get("nonce");
        String nonce = nonceNode != null && nonceNode.isTextual() ? nonceNode.asText() : null;
        return new LeaseRecord(holder, epoch, expiresAt, nonce);
    }

    /** A holder written into a record: not null, not empty (such a record would read back as corrupt). */
    static String requireHolder(String holder) {
        if (Checks.notNull(holder, "holder").isEmpty()) {
            throw new InvalidArgumentException("holder must not be empty: it is the candidate id holding the lease");
        }
        return holder;
    }

    /** The record's JSON bytes, fields in a fixed order. */
    public MetaValue encode() {
        ObjectNode root = JSON.createObjectNode();
        if (holder != null) {
            root.put("holder", holder);
        }
        root.put("epoch", epoch);
        root.put("expiresAtMillis", expiresAtMillis);
        if (nonce != null) {
            root.put("nonce", nonce);
        }
        try {
            return MetaValue.of(JSON.writeValueAsBytes(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a lease record", e);
        }
    }

    /** The holder; empty when the record is vacant (its last holder resigned). */
    public Optional<String> holder() {
        return Optional.ofNullable(holder);
    }

    /** The term; 0 for a legacy record written before epochs existed. */
    public long epoch() {
        return epoch;
    }

    /** The writer's wall-clock expiry, in epoch millis. */
    public long expiresAtMillis() {
        return expiresAtMillis;
    }

    /** The per-write nonce; empty for legacy records. */
    public Optional<String> nonce() {
        return Optional.ofNullable(nonce);
    }

    /** Whether nobody holds the lease.  */
    public boolean isVacant() {
        return holder == null;
    }

    /** Whether a candidate whose wall clock reads {@code nowMillis} may acquire the lease. */
    public boolean isFreeAt(long nowMillis) {
        return holder == null || nowMillis >= expiresAtMillis;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (!(o instanceof LeaseRecord)) {
            return false;
        }
        LeaseRecord other = (LeaseRecord) o;
        return epoch == other.epoch
                && expiresAtMillis == other.expiresAtMillis
                && Objects.equals(holder, other.holder)
                && Objects.equals(nonce, other.nonce);
    }

    @Override
    public int hashCode() {
        return Objects.hash(holder, epoch, expiresAtMillis, nonce);
    }

    @Override
    public String toString() {
        return holder == null
                ? "LeaseRecord[vacant, epoch=" + epoch + "]"
                : "LeaseRecord[holder=" + holder + ", epoch=" + epoch + ", expiresAtMillis=" + expiresAtMillis + "]";
    }
}
