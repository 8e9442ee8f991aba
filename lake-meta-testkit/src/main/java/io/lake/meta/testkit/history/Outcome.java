package io.lake.meta.testkit.history;

import io.lake.meta.Entry;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaValue;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the store answered, as a claim the checker holds it to.
 *
 * <ul>
 *   <li>{@link Read}, {@link Written}, {@link GuardedWritten}, {@link Transacted}, {@link Paged}: a definite answer; the operation
 *       took effect (or observed the state) exactly once, between its invocation and its answer;</li>
 *   <li>{@link Unknown}: the store cannot tell ({@code OutcomeUnknownException}, or an error
 *       outside the contract): the operation may take effect at any point after its invocation,
 *       even after the call returned, or never;</li>
 *   <li>{@link NotApplied}: the store said nothing was applied ({@code StoreUnavailableException}
 *       and the contract's other refusals): the operation must have had no effect.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public sealed interface Outcome
        permits Outcome.Read,
                Outcome.Written,
                Outcome.GuardedWritten,
                Outcome.Transacted,
                Outcome.Paged,
                Outcome.Unknown,
                Outcome.NotApplied {

    /** A get's answer: the value, or empty when the key was absent. */
    record Read(Optional<MetaValue> value) implements Outcome {
        public Read {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return value.map(MetaValue::toString).orElse("absent");
        }
    }

    /** A conditional write's answer: applied, or a conflict (with the current value when known). */
    record Written(WriteResult result) implements Outcome {
        public Written {
            Objects.requireNonNull(result, "result");
        }

        @Override
        public String toString() {
            return result.toString();
        }
    }

    /** A guarded write's answer: applied, guard rejected or target conflict. */
    record GuardedWritten(GuardedResult result) implements Outcome {
        public GuardedWritten {
            Objects.requireNonNull(result, "result");
        }

        @Override
        public String toString() {
            return result.toString();
        }
    }

    /** A transaction's answer: applied, or not applied with every failure. */
    record Transacted(TransactionResult result) implements Outcome {
        public Transacted {
            Objects.requireNonNull(result, "result");
        }

        @Override
        public String toString() {
            return result.toString();
        }
    }

    /** A first page's answer: its entries, and whether it handed back a token for more. */
    record Paged(List<Entry> entries, boolean hasMore) implements Outcome {
        public Paged {
            entries = List.copyOf(entries);
        }

        @Override
        public String toString() {
            return entries.size() + " entries "
                    + entries.stream().map(e -> e.key().toString()).toList() + (hasMore ? " and a token" : "");
        }
    }

    /** The store could not tell whether the operation applied; {@code reason} says why (for reports). */
    record Unknown(String reason) implements Outcome {
        @Override
        public String toString() {
            return "unknown (" + reason + ")";
        }
    }

    /** The store said the operation was not applied; {@code reason} says why (for reports). */
    record NotApplied(String reason) implements Outcome {
        @Override
        public String toString() {
            return "not applied (" + reason + ")";
        }
    }
}
