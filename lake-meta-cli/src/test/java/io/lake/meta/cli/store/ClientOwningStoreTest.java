package io.lake.meta.cli.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The store {@code dynamo:TABLE} opens closes the client the command built, after the store. */
class ClientOwningStoreTest {

    private final List<String> events = new ArrayList<>();

    private MetaStore store(RuntimeException onClose) {
        return (MetaStore) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {MetaStore.class}, (proxy, method, args) -> {
                    events.add("store." + method.getName());
                    if (method.getName().equals("close") && onClose != null) {
                        throw onClose;
                    }
                    return method.getName().equals("get") ? Optional.of(MetaValue.utf8("v")) : null;
                });
    }

    @Test
    void delegatesThenClosesStoreThenClientThenCredentials() {
        MetaStore owning = new DynamoStoreSpec.ClientOwningStore(
                store(null), () -> events.add("client.close"), () -> events.add("credentials.close"));

        assertThat(owning.get(MetaKey.of("tbl/a/b"))).hasValue(MetaValue.utf8("v"));
        owning.close();

        assertThat(events).containsExactly("store.get", "store.close", "client.close", "credentials.close");
    }

    @Test
    void closesTheClientEvenWhenTheStoreFailsToClose() {
        MetaStore owning = new DynamoStoreSpec.ClientOwningStore(
                store(new IllegalStateException("boom")),
                () -> events.add("client.close"),
                () -> events.add("credentials.close"));

        assertThatThrownBy(owning::close).hasMessage("boom");

        assertThat(events).containsExactly("store.close", "client.close", "credentials.close");
    }
}
