package io.lake.meta.counter;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.io.IOException;

/**
 * The JSON record under a counter key: {@code {"next":42,"nonce":"3f0c..."}}.
 *
 * <ul>
 *   <li>{@code next}: the lowest value not handed out yet (values below it were handed out, or
 *       skipped after a lost answer);</li>
 *   <li>{@code nonce}: unique per write, so no two writes ever leave the same bytes and a writer
 *       whose answer was lost can tell its own write from another writer's that reached the same
 *       {@code next}. Optional when reading (a record seeded by hand may lack it).</li>
 * </ul>
 * Unknown fields are ignored, so later versions may add some.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record CounterRecord(long next, String nonce) {

    /** Strict about what would make a record ambiguous; lenient about unknown fields. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    @JsonCreator
    CounterRecord(@JsonProperty(value = "next", required = true) long next, @JsonProperty("nonce") String nonce) {
        if (next < 0) {
            throw new IllegalArgumentException("next " + next + " is negative");
        }
        this.next = next;
        this.nonce = nonce;
    }

    /**
     * @throws CorruptCounterRecordException if the bytes are not a counter record; the message says why
     */
    static CounterRecord decode(MetaKey key, MetaValue value) {
        try {
            CounterRecord record = JSON.readValue(value.toByteArray(), CounterRecord.class);
            if (record == null) {
                throw new CorruptCounterRecordException(key, "the JSON literal null, not a counter record");
            }
            return record;
        } catch (ValueInstantiationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new CorruptCounterRecordException(key, String.valueOf(cause.getMessage()));
        } catch (JsonProcessingException e) {
            throw new CorruptCounterRecordException(key, e.getOriginalMessage());
        } catch (IOException e) {
            throw new CorruptCounterRecordException(key, "unreadable: " + e.getMessage());
        }
    }

    /** The record's JSON bytes, {@code next} first; a null nonce is left out. */
    MetaValue encode() {
        try {
            return MetaValue.of(JSON.writeValueAsBytes(this));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a counter record", e);
        }
    }
}
