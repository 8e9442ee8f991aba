package io.lake.meta.testkit.counter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.BackendSuite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The plumbing the counter suite shares: a fresh store of the backend per test and counters on it.
 * Backends do not extend this class: they extend {@link CounterSuite}.
 */
abstract class CounterSupport extends BackendSuite {

    protected static final MetaKey COUNTER_KEY = MetaKey.of("seq/table-ids");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The raw store under test; fresh and empty for each test. */
    protected MetaStore store;

    @BeforeEach
    final void openCounterStore() throws Exception {
        store = openStore(RaceHooks.NONE, Clock.systemUTC());
    }

    @AfterEach
    final void closeCounterStore() {
        if (store != null) {
            store.close();
        }
    }

    /** A counter on {@link #COUNTER_KEY} through the raw store. */
    protected MonotonicCounter counter() {
        return counter(store, b -> b);
    }

    /** A counter on {@link #COUNTER_KEY} through {@code via}; {@code extra} may add builder options. */
    protected MonotonicCounter counter(MetaStore via, UnaryOperator<MonotonicCounter.Builder> extra) {
        return extra.apply(MonotonicCounter.builder().store(via).key(COUNTER_KEY))
                .build();
    }

    /** The stored record, parsed as plain JSON. */
    protected JsonNode record() {
        MetaValue bytes = store.get(COUNTER_KEY).orElseThrow(() -> new AssertionError("no counter record"));
        try {
            return JSON.readTree(bytes.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The record's {@code next}: the lowest value not handed out. */
    protected long storedNext() {
        return record().get("next").asLong();
    }

    /** Writes raw counter bytes under the suite's key, as an operator or an older version would have. */
    protected void seed(String json) {
        assertThat(store.create(COUNTER_KEY, MetaValue.utf8(json)).isApplied()).isTrue();
    }
}
