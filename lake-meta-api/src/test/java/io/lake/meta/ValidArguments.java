package io.lake.meta;

import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One valid argument for every parameter of {@link ApiEntryPoints}, so a walk can replace one of
 * them by a bad value and know that the refusal is about that value. A parameter of a type with
 * no sample fails the walk, which is how a new entry point asks for one.
 */
final class ValidArguments {

    private static final MetaKey KEY = MetaKey.of("tbl/k");
    private static final MetaValue VALUE = MetaValue.utf8("v");
    private static final KeyPrefix PREFIX = KeyPrefix.of("tbl/");
    private static final PageTokenCodec CODEC = new PageTokenCodec("memory", 1);
    private static final Entry ENTRY = new Entry(KEY, VALUE);

    /** Samples by the parameter's generic type name, valid wherever that type is taken. */
    private static final Map<String, Supplier<Object>> BY_TYPE = Map.ofEntries(
            Map.entry("java.lang.String", () -> "tbl/k"),
            Map.entry("byte[]", () -> "tbl/k".getBytes(StandardCharsets.UTF_8)),
            Map.entry("int", () -> 1),
            Map.entry("long", () -> 1L),
            Map.entry("double", () -> 0.5),
            Map.entry("io.lake.meta.MetaKey", () -> KEY),
            Map.entry("io.lake.meta.MetaValue", () -> VALUE),
            Map.entry("io.lake.meta.KeyPrefix", () -> PREFIX),
            Map.entry("io.lake.meta.Entry", () -> ENTRY),
            Map.entry("io.lake.meta.Mutation", () -> Mutation.create(KEY, VALUE)),
            Map.entry("io.lake.meta.Mutation$Create", () -> Mutation.create(KEY, VALUE)),
            Map.entry("io.lake.meta.Mutation$Update", () -> Mutation.update(KEY, VALUE, VALUE)),
            Map.entry("io.lake.meta.Mutation$Delete", () -> Mutation.delete(KEY, VALUE)),
            Map.entry("io.lake.meta.GuardedMutation", () -> new GuardedMutation(MetaKey.of("lease/l"), VALUE, Mutation.create(KEY, VALUE))),
            Map.entry("io.lake.meta.WriteResult", () -> WriteResult.conflict(Optional.of(VALUE))),
            Map.entry("io.lake.meta.GuardedResult", GuardedResult::applied),
            Map.entry("io.lake.meta.PageCost", () -> PageCost.items(1)),
            Map.entry("io.lake.meta.Page", () -> new Page(List.of(ENTRY), Optional.of("t"), PageCost.items(1))),
            Map.entry("io.lake.meta.PageRequest", () -> PageRequest.first(PREFIX, 1)),
            Map.entry("java.util.Optional<io.lake.meta.MetaValue>", () -> Optional.of(VALUE)),
            Map.entry("java.util.Optional<java.lang.String>", () -> Optional.of("t")),
            Map.entry("java.util.List<io.lake.meta.Entry>", () -> List.of(ENTRY)),
            Map.entry("io.lake.meta.spi.PageCursor", () -> PageCursor.startOf(0)),
            Map.entry("io.lake.meta.spi.PageTokenCodec", () -> CODEC),
            Map.entry("io.lake.meta.lease.LeaseRecord", () -> LeaseRecord.held("node-a", 1, 1, "n")),
            Map.entry("io.lake.meta.Condition", () -> Condition.absent(MetaKey.of("tbl/other"))),
            Map.entry("io.lake.meta.Condition$Holds", () -> Condition.holds(MetaKey.of("tbl/other"), VALUE)),
            Map.entry("io.lake.meta.Condition$Absent", () -> Condition.absent(MetaKey.of("tbl/other"))),
            Map.entry("io.lake.meta.Transaction", () -> Transaction.of(List.of(), List.of(Mutation.create(KEY, VALUE)))),
            Map.entry("io.lake.meta.Transaction$Builder", Transaction::builder),
            Map.entry("io.lake.meta.TransactionFailure", () -> TransactionFailure.currentUnknown(KEY)),
            Map.entry("io.lake.meta.TransactionResult", TransactionResult::applied),
            Map.entry("java.util.List<io.lake.meta.Condition>", () -> List.of(Condition.absent(MetaKey.of("tbl/other")))),
            Map.entry("java.util.List<io.lake.meta.Mutation>", () -> List.of(Mutation.create(KEY, VALUE))),
            Map.entry("java.util.List<io.lake.meta.TransactionFailure>", () -> List.of(TransactionFailure.currentUnknown(KEY))),
            Map.entry("java.util.Collection<io.lake.meta.MetaKey>", () -> List.of(KEY)));

    /** Samples for one parameter of one entry point ("Owner.member#index"), where the type's sample is not valid there. */
    private static final Map<String, Supplier<Object>> BY_PARAMETER = Map.of(
            "KeyPrefix.family#0", () -> "tbl",
            "GuardedMutation.<init>#0", () -> MetaKey.of("lease/l"),
            "spi.PageCursor.after#0", () -> 0,
            "spi.PageTokenCodec.decode#1", () -> CODEC.encode(PREFIX, PageCursor.startOf(0)),
            "lease.LeaseRecord.decode#1", () -> LeaseRecord.held("node-a", 1, 1, "n").encode(),
            "Transaction.requireAtMostBytes#0", () -> Limits.MAX_TRANSACTION_BYTES);

    private ValidArguments() {
    }

    /** A valid argument for every parameter of {@code point}. */
    static Object[] forAll(Executable point) {
        Type[] types = point.getGenericParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            args[i] = forParameter(point, i);
        }
        return args;
    }

    /** A valid receiver for an instance method of {@code type}. */
    static Object receiver(Class<?> type) {
        Supplier<Object> sample = BY_TYPE.get(type.getTypeName());
        if (sample == null) {
            throw new AssertionError("no sample receiver of " + type.getName() + ": add one to ValidArguments.BY_TYPE");
        }
        return sample.get();
    }

    private static Object forParameter(Executable point, int index) {
        String member = point instanceof Constructor ? "<init>" : point.getName();
        Supplier<Object> sample = BY_PARAMETER.get(ApiEntryPoints.ownerName(point.getDeclaringClass()) + "." + member + "#" + index);
        if (sample == null) {
            sample = BY_TYPE.get(point.getGenericParameterTypes()[index].getTypeName());
        }
        if (sample == null) {
            throw new AssertionError("no valid sample for parameter " + index + " (" + point.getGenericParameterTypes()[index]
                    + ") of " + ApiEntryPoints.describe(point) + ": add one to ValidArguments");
        }
        return sample.get();
    }
}
