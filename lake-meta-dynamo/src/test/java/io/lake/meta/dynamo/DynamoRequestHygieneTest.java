package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.PageRequest;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** What the store sends, and what it leaves alone: no request for an invalid call, the caller's metrics untouched. */
class DynamoRequestHygieneTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");

    @Test
    void invalidCalls_sendNoRequest() {
        DynamoDbTestServer server = TARGET.requireInProcessServer();
        DynamoTableStore store = openNew(client(), "hygiene-invalid", null);
        KeyPrefix prefix = KeyPrefix.of("tbl/");
        store.create(K, MetaValue.utf8("v"));
        String token = store.page(prefix, 1).nextToken().orElseThrow();
        String table = tableOf(store);
        TableStatistics before = server.statistics().table(table);

        assertThatThrownBy(() -> store.get(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.apply(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.applyGuarded(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.page(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.page(PageRequest.after(KeyPrefix.of("tbl/ns1/"), token, 10)))
                .isInstanceOf(InvalidPageTokenException.class);
        assertThatThrownBy(() -> store.page(PageRequest.after(prefix, token.substring(1), 10)))
                .isInstanceOf(InvalidPageTokenException.class);
        assertThatThrownBy(() -> store.applyGuarded(
                        new GuardedMutation(K, MetaValue.empty(), Mutation.delete(K, MetaValue.empty()))))
                .isInstanceOf(InvalidArgumentException.class);

        assertThat(requestsSince(before, server, table)).isEmpty();
    }

    @Test
    void callersMetricPublisher_stillReceivesEveryCall() {
        List<String> operations = new CopyOnWriteArrayList<>();
        MetricPublisher userPublisher = new MetricPublisher() {
            @Override
            public void publish(MetricCollection call) {
                operations.addAll(call.metricValues(CoreMetric.OPERATION_NAME));
            }

            @Override
            public void close() {}
        };
        DynamoDbClient client =
                track(TARGET.newClient(b -> b.overrideConfiguration(o -> o.addMetricPublisher(userPublisher))));
        DynamoTableStore store = openNew(client, "hygiene-metrics", null);
        operations.clear();

        store.create(K, MetaValue.utf8("a"));
        store.update(K, MetaValue.utf8("a"), MetaValue.utf8("b"));
        store.create(MetaKey.of("lease/leader"), MetaValue.utf8("g"));
        store.applyGuarded(new GuardedMutation(
                MetaKey.of("lease/leader"), MetaValue.utf8("g"), Mutation.delete(K, MetaValue.utf8("b"))));
        store.get(K);

        assertThat(operations).containsExactly("PutItem", "PutItem", "PutItem", "TransactWriteItems", "GetItem");
    }
}
