package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Full iterations over several shard counts and limits, with the awkward keys of a sharded layout. Runs on every target. */
class DynamoPagingTest extends DynamoTestSupport {

    private static final List<String> KEYS = List.of(
            "tbl/ns1/t", // equal to the narrow prefix below
            "tbl/ns1/t0",
            "tbl/ns1/t1",
            "tbl/ns1/ta",
            "tbl/ns1/tz",
            "tbl/ns1/t\uffff",
            "tbl/ns1/t\ud83d\ude00", // U+FFFF sorts after U+1F600 in UTF-16, before it in UTF-8
            "tbl/ns1/t/deeper/still",
            "tbl/ns1/u",
            "tbl/ns10/t",
            "tbl/ns1x/t",
            "tbl2/ns1/t",
            "tbm/x");

    private static List<MetaKey> readAll(DynamoTableStore store, KeyPrefix prefix, int limit) {
        List<MetaKey> all = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, limit));
        int pages = 0;
        while (request.isPresent()) {
            Page page = store.page(request.get());
            assertThat(page.entries()).hasSizeLessThanOrEqualTo(limit);
            assertThat(page.cost().itemsEvaluated()).isLessThanOrEqualTo(limit);
            for (Entry e : page.entries()) {
                all.add(e.key());
                assertThat(e.value()).isEqualTo(MetaValue.utf8(e.key().toString()));
            }
            request = request.get().next(page);
            assertThat(++pages).as("pages of %s", prefix).isLessThan(10_000);
        }
        return all;
    }

    @ParameterizedTest(name = "{0} shards")
    @ValueSource(ints = {1, 3, 16})
    void everyKeyUnderThePrefix_exactlyOnce_forEveryLimit(int shards) {
        DynamoDbClient client = client();
        DynamoTableStore store = openNew(client, "paging-" + shards, shards);
        for (String k : KEYS) {
            assertThat(store.create(MetaKey.of(k), MetaValue.utf8(k)).isApplied())
                    .isTrue();
        }
        for (String p :
                List.of("tbl/", "tbl/ns1/", "tbl/ns1/t", "tbl/ns1/t/", "tbl/ns1/tz", "tbl/ns1/v", "tbm/", "zzz/")) {
            KeyPrefix prefix = KeyPrefix.of(p);
            Set<MetaKey> expected =
                    KEYS.stream().map(MetaKey::of).filter(prefix::contains).collect(Collectors.toSet());
            for (int limit : new int[] {1, 2, 5, 100}) {
                List<MetaKey> all = readAll(store, prefix, limit);
                assertThat(all)
                        .as("%s with limit %d on %d shards", p, limit, shards)
                        .doesNotHaveDuplicates();
                assertThat(new HashSet<>(all))
                        .as("%s with limit %d on %d shards", p, limit, shards)
                        .isEqualTo(expected);
                if (shards == 1) {
                    assertThat(all).as("one shard: unsigned UTF-8 byte order").isSorted();
                }
            }
        }
    }
}
