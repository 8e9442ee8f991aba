package io.lake.meta.arguments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.lake.meta.*;
import io.lake.meta.lease.LeadershipStatus;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The other half of {@link NullArgumentsTest}: arguments that are present but outside what an
 * entry point accepts are refused with {@link InvalidArgumentException}, never with an
 * {@link IllegalArgumentException} from inside or by building something that later fails.
 */
class OutOfRangeArgumentsTest {

    private static final MetaKey KEY = MetaKey.of("tbl/k");
    private static final MetaValue VALUE = MetaValue.utf8("v");
    private static final KeyPrefix PREFIX = KeyPrefix.of("tbl/ns1/");

    static Stream<Arguments> outOfRange() {
        return Stream.of(
                // keys, prefixes, values
                arguments(
                        "KeyPrefix.family of a text holding '/' (not one family)",
                        call(() -> KeyPrefix.family("tbl/ns1"))),
                arguments("KeyPrefix.family of an empty family", call(() -> KeyPrefix.family(""))),
                arguments("KeyPrefix.family of an upper-case family", call(() -> KeyPrefix.family("Tbl"))),
                arguments(
                        "MetaKey.fromUtf8 of bytes that are not UTF-8",
                        call(() -> MetaKey.fromUtf8(new byte[] {'t', '/', (byte) 0xff}))),
                arguments("MetaValue.utf8 of a lone high surrogate", call(() -> MetaValue.utf8("v\ud83d"))),
                arguments("MetaValue.utf8 of a lone low surrogate", call(() -> MetaValue.utf8("\ude00v"))),
                arguments("MetaValue.of 256 KiB + 1", call(() -> MetaValue.of(new byte[Limits.MAX_VALUE_BYTES + 1]))),
                // results
                arguments(
                        "GuardedResult.targetConflict of an applied write",
                        call(() -> GuardedResult.targetConflict(WriteResult.applied()))),
                arguments(
                        "new GuardedMutation whose guard is its target",
                        call(() -> new GuardedMutation(KEY, VALUE, Mutation.delete(KEY, VALUE)))),
                // pages
                arguments("new PageCost with negative items", call(() -> new PageCost(-1, 0))),
                arguments("new PageCost with negative requests", call(() -> new PageCost(0, 0, -1))),
                arguments("new PageCost with negative capacity", call(() -> new PageCost(0, -0.5))),
                arguments("new PageCost with NaN capacity", call(() -> new PageCost(0, Double.NaN))),
                arguments("new PageCost with infinite capacity", call(() -> new PageCost(0, Double.POSITIVE_INFINITY))),
                arguments("PageCost.items negative", call(() -> PageCost.items(-1))),
                arguments(
                        "new Page holding a null entry",
                        call(() -> new Page(
                                Arrays.asList(new Entry(KEY, VALUE), null), Optional.empty(), PageCost.items(1)))),
                arguments(
                        "new Page with an empty next token",
                        call(() -> new Page(List.of(), Optional.of(""), PageCost.items(0)))),
                arguments("PageRequest.first with limit 0", call(() -> PageRequest.first(PREFIX, 0))),
                arguments(
                        "PageRequest.first with limit 10 001",
                        call(() -> PageRequest.first(PREFIX, Limits.MAX_PAGE_LIMIT + 1))),
                arguments("PageRequest.after with an empty token", call(() -> PageRequest.after(PREFIX, "", 1))),
                // spi
                arguments("PageCursor.startOf a negative partition", call(() -> PageCursor.startOf(-1))),
                arguments(
                        "PageCursor.after in a negative partition",
                        call(() -> PageCursor.after(-1, PREFIX, MetaKey.of("tbl/ns1/a")))),
                arguments(
                        "PageCursor.after a key outside the prefix",
                        call(() -> PageCursor.after(0, PREFIX, MetaKey.of("tbl/ns10/a")))),
                arguments("new PageTokenCodec with an empty layout", call(() -> new PageTokenCodec("", 1))),
                arguments("new PageTokenCodec with no partition", call(() -> new PageTokenCodec("memory", 0))),
                arguments(
                        "PageTokenCodec.encode of a partition outside its layout",
                        call(() -> new PageTokenCodec("memory", 1).encode(PREFIX, PageCursor.startOf(1)))),
                // lease records
                arguments(
                        "LeaseRecord.held by an empty holder (decode would call the record corrupt)",
                        call(() -> LeaseRecord.held("", 1, 1, "n"))),
                arguments("LeaseRecord.held with a negative epoch", call(() -> LeaseRecord.held("node-a", -1, 1, "n"))),
                arguments("LeaseRecord.vacant with a negative epoch", call(() -> LeaseRecord.vacant(-1, 1, "n"))),
                arguments("new LeaseGuard with a negative epoch", call(() -> new LeaseGuard(KEY, VALUE, -1, 0))),
                arguments(
                        "new LeadershipStatus.Leader with a negative epoch",
                        call(() -> new LeadershipStatus.Leader(-1))),
                arguments(
                        "new LeadershipStatus.Follower of an empty holder",
                        call(() -> new LeadershipStatus.Follower("", 1))),
                arguments(
                        "new LeadershipStatus.Follower with a negative epoch",
                        call(() -> new LeadershipStatus.Follower("node-a", -1))),
                arguments(
                        "new LeadershipStatus.Vacant with a negative epoch",
                        call(() -> new LeadershipStatus.Vacant(-1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfRange")
    void outOfRangeArgument_isRefusedWithTheTypedError(String what, ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);

        assertThat(thrown).as("%s: what it threw", what).isInstanceOf(InvalidArgumentException.class);
        assertThat(thrown.getMessage())
                .as("%s: the message says what was wrong", what)
                .isNotBlank();
    }

    /** Names the lambda's type for {@link Arguments}, which takes plain objects. */
    private static ThrowingCallable call(ThrowingCallable callable) {
        return callable;
    }
}
