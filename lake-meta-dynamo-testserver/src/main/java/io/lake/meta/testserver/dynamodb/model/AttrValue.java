package io.lake.meta.testserver.dynamodb.model;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One immutable DynamoDB attribute value. Numbers are kept normalised (see {@link Numbers});
 * sets keep their elements as scalar values in insertion order and compare order-insensitively.
 *
 * @since 0.1.0
 */
public final class AttrValue {

    /** The ten DynamoDB data types, named as on the wire. */
    public enum Type {
        S,
        N,
        B,
        BOOL,
        NULL,
        M,
        L,
        SS,
        NS,
        BS;

        /** Whether values of this type can be ordered ({@code <}, BETWEEN, sort keys). */
        public boolean scalar() {
            return this == S || this == N || this == B;
        }

        public boolean set() {
            return this == SS || this == NS || this == BS;
        }

        /** The element type of a set type. */
        public Type elementType() {
            switch (this) {
                case SS:
                    return S;
                case NS:
                    return N;
                case BS:
                    return B;
                default:
                    throw new IllegalStateException(this + " is not a set type");
            }
        }
    }

    private final Type type;
    // set for the types named, null for the others
    private final @Nullable String string; // S; N in normalised text form
    private final @Nullable BigDecimal number; // N
    private final byte @Nullable [] bytes; // B
    private final boolean bool; // BOOL
    private final @Nullable Map<String, AttrValue> map; // M
    private final @Nullable List<AttrValue> list; // L and sets

    private AttrValue(
            Type type,
            @Nullable String string,
            @Nullable BigDecimal number,
            byte @Nullable [] bytes,
            boolean bool,
            @Nullable Map<String, AttrValue> map,
            @Nullable List<AttrValue> list) {
        this.type = type;
        this.string = string;
        this.number = number;
        this.bytes = bytes;
        this.bool = bool;
        this.map = map;
        this.list = list;
    }

    public static AttrValue s(String s) {
        return new AttrValue(Type.S, Objects.requireNonNull(s), null, null, false, null, null);
    }

    /** A number from an already validated decimal; it is normalised here. */
    public static AttrValue n(BigDecimal n) {
        BigDecimal canonical = Numbers.canonical(n);
        return new AttrValue(Type.N, Numbers.toText(canonical), canonical, null, false, null, null);
    }

    public static AttrValue b(byte[] b) {
        return new AttrValue(Type.B, null, null, b.clone(), false, null, null);
    }

    public static AttrValue bool(boolean b) {
        return new AttrValue(Type.BOOL, null, null, null, b, null, null);
    }

    public static AttrValue nul() {
        return new AttrValue(Type.NULL, null, null, null, true, null, null);
    }

    public static AttrValue m(Map<String, AttrValue> m) {
        return new AttrValue(
                Type.M, null, null, null, false, Collections.unmodifiableMap(new LinkedHashMap<>(m)), null);
    }

    public static AttrValue l(List<AttrValue> l) {
        return new AttrValue(Type.L, null, null, null, false, null, List.copyOf(l));
    }

    /** A set of the given set type; elements must be distinct scalars of the element type. */
    public static AttrValue set(Type setType, List<AttrValue> elements) {
        if (!setType.set()) {
            throw new IllegalArgumentException(setType + " is not a set type");
        }
        return new AttrValue(setType, null, null, null, false, null, List.copyOf(elements));
    }

    public Type type() {
        return type;
    }

    public String s() {
        return present(string);
    }

    /** The canonical text of a number. */
    public String nText() {
        return present(string);
    }

    public BigDecimal n() {
        return present(number);
    }

    public byte[] b() {
        return rawBytes().clone();
    }

    byte[] rawBytes() {
        return present(bytes);
    }

    public boolean boolValue() {
        return bool;
    }

    public Map<String, AttrValue> m() {
        return present(map);
    }

    /** The elements of a list or a set. */
    public List<AttrValue> elements() {
        return present(list);
    }

    /** A field of this value's type; asking a value of another type for it is a bug. */
    private <T> T present(@Nullable T field) {
        if (field == null) {
            throw new IllegalStateException("a " + type + " value has no such field");
        }
        return field;
    }

    /** The bytes that identify a scalar: UTF-8 for S, raw for B, canonical text for N. */
    public byte[] identityBytes() {
        switch (type) {
            case S:
                return s().getBytes(StandardCharsets.UTF_8);
            case N:
                return nText().getBytes(StandardCharsets.US_ASCII);
            case B:
                return rawBytes();
            default:
                throw new IllegalStateException("not a scalar: " + type);
        }
    }

    /**
     * Orders two scalars of the same type as DynamoDB does: strings by unsigned UTF-8 bytes,
     * binaries by unsigned bytes, numbers numerically.
     */
    public static int compareScalars(AttrValue a, AttrValue b) {
        if (a.type != b.type || !a.type.scalar()) {
            throw new IllegalArgumentException("cannot order " + a.type + " against " + b.type);
        }
        switch (a.type) {
            case N:
                return a.n().compareTo(b.n());
            case B:
                return Arrays.compareUnsigned(a.rawBytes(), b.rawBytes());
            default:
                return Arrays.compareUnsigned(
                        a.s().getBytes(StandardCharsets.UTF_8), b.s().getBytes(StandardCharsets.UTF_8));
        }
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AttrValue)) {
            return false;
        }
        AttrValue other = (AttrValue) o;
        if (type != other.type) {
            return false;
        }
        switch (type) {
            case S:
            case N:
                return s().equals(other.string);
            case B:
                return Arrays.equals(bytes, other.bytes);
            case BOOL:
                return bool == other.bool;
            case NULL:
                return true;
            case M:
                return m().equals(other.map);
            case L:
                return elements().equals(other.list);
            default:
                return elements().size() == other.elements().size()
                        && new HashSet<>(elements()).equals(new HashSet<>(other.elements()));
        }
    }

    @Override
    public int hashCode() {
        switch (type) {
            case S:
            case N:
                return s().hashCode() * 31 + type.name().hashCode();
            case B:
                return Arrays.hashCode(bytes);
            case BOOL:
                return Boolean.hashCode(bool);
            case NULL:
                return 7;
            case M:
                return m().hashCode();
            case L:
                return elements().hashCode();
            default:
                Set<AttrValue> elements = new HashSet<>(elements());
                return elements.hashCode() + type.name().hashCode();
        }
    }

    /** A short rendering like DynamoDB's error messages use, such as {@code {S:a}}. */
    @Override
    public String toString() {
        switch (type) {
            case S:
                return "{S:" + string + "}";
            case N:
                return "{N:" + string + "}";
            case B:
                return "{B:" + java.util.Base64.getEncoder().encodeToString(rawBytes()) + "}";
            case BOOL:
                return "{BOOL:" + bool + "}";
            case NULL:
                return "{NULL:true}";
            case M:
                return "{M:" + map + "}";
            case L:
                return "{L:" + list + "}";
            default:
                return "{" + type + ":" + list + "}";
        }
    }
}
