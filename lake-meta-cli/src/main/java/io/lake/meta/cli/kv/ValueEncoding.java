package io.lake.meta.cli.kv;

import io.lake.meta.MetaValue;
import io.lake.meta.cli.UsageException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/** How values are written on the command line and printed: UTF-8 text, hex or base64. */
enum ValueEncoding {
    UTF8("utf8") {
        @Override
        byte[] decodeBytes(String text, String what) {
            // strict: String.getBytes would write '?' for a lone surrogate
            try {
                ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(text));
                byte[] out = new byte[bytes.remaining()];
                bytes.get(out);
                return out;
            } catch (CharacterCodingException e) {
                throw new UsageException(what + " is not valid text (it holds a lone surrogate, which has no UTF-8"
                        + " encoding): pass the value with --hex or --base64");
            }
        }

        @Override
        String encode(MetaValue value, String what) {
            try {
                return StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(ByteBuffer.wrap(value.toByteArray()))
                        .toString();
            } catch (CharacterCodingException e) {
                throw new UsageException(
                        what + " is not UTF-8 text (" + value.size() + " bytes): print it with --hex or --base64");
            }
        }
    },

    HEX("hex") {
        @Override
        byte[] decodeBytes(String text, String what) {
            try {
                return HexFormat.of().parseHex(text);
            } catch (IllegalArgumentException e) {
                throw new UsageException(
                        what + " is not hex: write an even number of digits 0-9a-f," + " for example 00ff10");
            }
        }

        @Override
        String encode(MetaValue value, String what) {
            return HexFormat.of().formatHex(value.toByteArray());
        }
    },

    BASE64("base64") {
        @Override
        byte[] decodeBytes(String text, String what) {
            try {
                return Base64.getDecoder().decode(text);
            } catch (IllegalArgumentException e) {
                throw new UsageException(what + " is not base64: " + e.getMessage());
            }
        }

        @Override
        String encode(MetaValue value, String what) {
            return Base64.getEncoder().encodeToString(value.toByteArray());
        }
    };

    private final String label;

    ValueEncoding(String label) {
        this.label = label;
    }

    /** The encoding's name in JSON output. */
    String label() {
        return label;
    }

    /**
     * Decodes a value given on the command line.
     *
     * @param what the argument's name, for messages (such as {@code VALUE} or {@code --expect})
     * @throws UsageException if the text is not in this encoding
     * @throws io.lake.meta.InvalidArgumentException if the value is larger than the contract allows
     */
    MetaValue decode(String text, String what) {
        return MetaValue.of(decodeBytes(text, what));
    }

    abstract byte[] decodeBytes(String text, String what);

    /**
     * Encodes a value for output.
     *
     * @param what names the value, for messages
     * @throws UsageException if the value cannot be shown in this encoding (binary as UTF-8)
     */
    abstract String encode(MetaValue value, String what);

    /** Like {@link #encode}, but falls back to the value's hex preview instead of failing: for messages. */
    String display(MetaValue value) {
        try {
            return encode(value, "value");
        } catch (UsageException e) {
            return value.toString();
        }
    }
}
