package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Part of {@link MetaStoreSuite}: after {@code close()} every call fails; closing is idempotent. */
@ContractGroup("closed store")
abstract class ClosedStoreContract extends KeyAndValueRulesContract {

    private final MetaKey k = key("tbl/ns1/a");

    private void assertClosed(ThrowingCallable call, String what) {
        assertThatThrownBy(call)
                .as(what)
                .isInstanceOf(StoreClosedException.class)
                .satisfies(
                        e -> assertThat(((StoreClosedException) e).retryable()).isFalse());
    }

    @Test
    void everyCall_afterClose_throwsStoreClosed() {
        store.create(k, value("v"));
        store.create(key("tbl/ns1/b"), value("v"));
        store.create(key("lease/l"), value("g"));
        String token = store.page(prefix("tbl/ns1/"), 1).nextToken().orElseThrow();

        store.close();

        assertClosed(() -> store.get(k), "get");
        assertClosed(() -> store.getAll(List.of(k)), "getAll");
        assertClosed(() -> store.create(key("tbl/ns1/c"), value("v")), "create");
        assertClosed(() -> store.update(k, value("v"), value("w")), "update");
        assertClosed(() -> store.delete(k, value("v")), "delete");
        assertClosed(() -> store.apply(Mutation.delete(k, value("v"))), "apply");
        assertClosed(
                () -> store.applyGuarded(
                        new GuardedMutation(key("lease/l"), value("g"), Mutation.update(k, value("v"), value("w")))),
                "applyGuarded");
        assertClosed(
                () -> store.transact(Transaction.builder()
                        .requireHolds(key("lease/l"), value("g"))
                        .update(k, value("v"), value("w"))
                        .build()),
                "transact");
        assertClosed(() -> store.page(prefix("tbl/ns1/"), 10), "first page");
        assertClosed(() -> store.page(PageRequest.after(prefix("tbl/ns1/"), token, 10)), "next page");
    }

    @Test
    void close_isIdempotent() {
        store.close();
        store.close();
        store.close();

        assertClosed(() -> store.get(k), "get after three closes");
    }

    @Test
    void close_ofAnEmptyStore_thenEveryCallFails() {
        store.close();

        assertClosed(() -> store.get(k), "get");
        assertClosed(() -> store.page(prefix("tbl/"), 1), "page");
    }
}
