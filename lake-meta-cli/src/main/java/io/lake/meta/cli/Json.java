package io.lake.meta.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Map;

/** Compact, ASCII-only JSON for {@code --json} output: safe to pipe whatever the terminal's charset. */
public final class Json {

    private static final JsonMapper MAPPER =
            JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private Json() {}

    public static String write(Map<String, ?> object) {
        try {
            return MAPPER.writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + object.keySet(), e);
        }
    }
}
