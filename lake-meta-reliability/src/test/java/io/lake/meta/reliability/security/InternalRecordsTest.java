package io.lake.meta.reliability.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The records a store keeps for itself — RocksDB's format marker (under a key starting with NUL),
 * DynamoDB's layout record ({@code pk = sk = "#layout"}) — cannot be named, read, written or paged
 * through the public API: every spelling of their names is refused as a key or prefix; public keys
 * that look like them are ordinary keys of their own; and after writing and deleting those, the
 * internal record holds exactly the bytes it held. (The migration's cursor and write barrier do not
 * exist yet, issue 10; they join this suite when they do.)
 */
class InternalRecordsTest {

    private static final List<String> INTERNAL_SPELLINGS = List.of(
            "\u0000lake-meta/format", "\u0000lake-meta", "#layout", "#layout/x", "#/layout", "#layout#0/x", "\u0000/x");
    private static final List<String> LOOK_ALIKES = List.of(
            "lake-meta/format", "lake-meta-rocks/1", "tbl/#layout", "layout/#layout", "tbl/\u0000lake-meta", "x/#");

    @TempDir
    Path work;

    @Test
    void rocksDb_formatMarker_isUnreachable() throws Exception {
        Runs.seed("internal-records-rocksdb");
        Path dir = work.resolve("rocks");
        byte[] marker = "\u0000lake-meta/format".getBytes(StandardCharsets.UTF_8);
        byte[] before;
        RocksDB.loadLibrary();
        RocksDbMetaStore.builder().directory(dir).build().close();
        before = readRaw(dir, marker);
        int refused;
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            refused = refuseInternalSpellings();
            writeLookAlikes(store);
            assertThat(publicEntries(store)).allMatch(e -> e.key().utf8()[0] != 0);
        }
        assertThat(readRaw(dir, marker))
                .as("the format marker after the look-alikes")
                .isEqualTo(before);
        List<String> internal = new ArrayList<>();
        try (Options o = new Options();
                RocksDB db = RocksDB.openReadOnly(o, dir.toString());
                RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (it.key()[0] == 0) {
                    internal.add(new String(it.key(), StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(internal).as("internal records on disk").containsExactly("\u0000lake-meta/format");
        Runs.figures(
                "internal-records-rocksdb",
                "internal spellings refused=" + refused + ", look-alike keys written and read back="
                        + LOOK_ALIKES.size() + ", internal records changed=0");
    }

    @Test
    void dynamoDb_layoutRecord_isUnreachable() {
        Runs.seed("internal-records-dynamodb");
        try (DynamoDbClient client = DynamoStores.target().newClient();
                MetaStore store = DynamoStores.newStore(client, "internal", 4)) {
            String table = DynamoStores.tableOf(store);
            Map<String, AttributeValue> key =
                    Map.of("pk", AttributeValue.fromS("#layout"), "sk", AttributeValue.fromS("#layout"));
            Map<String, AttributeValue> before = client.getItem(
                            r -> r.tableName(table).key(key).consistentRead(true))
                    .item();
            assertThat(before).as("the layout record").isNotEmpty();
            int refused = refuseInternalSpellings();
            writeLookAlikes(store);
            assertThat(publicEntries(store)).noneMatch(e -> e.key().toString().startsWith("#"));
            Map<String, AttributeValue> after = client.getItem(
                            r -> r.tableName(table).key(key).consistentRead(true))
                    .item();
            assertThat(after).as("the layout record after the look-alikes").isEqualTo(before);
            Runs.figures(
                    "internal-records-dynamodb",
                    "internal spellings refused=" + refused + ", look-alike keys written and read back="
                            + LOOK_ALIKES.size() + ", internal records changed=0");
        }
    }

    private static int refuseInternalSpellings() {
        int refused = 0;
        for (String s : INTERNAL_SPELLINGS) {
            assertThatThrownBy(() -> MetaKey.of(s))
                    .as("MetaKey.of(%s)", s)
                    .isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> KeyPrefix.of(s))
                    .as("KeyPrefix.of(%s)", s)
                    .isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> MetaKey.fromUtf8(s.getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(InvalidArgumentException.class);
            refused += 3;
        }
        return refused;
    }

    /** Look-alike public keys are ordinary keys: written, read back, paged, deleted. */
    private static void writeLookAlikes(MetaStore store) {
        for (String s : LOOK_ALIKES) {
            MetaKey k = MetaKey.of(s);
            MetaValue v = MetaValue.utf8("public " + s);
            assertThat(store.create(k, v).isApplied()).as("create %s", s).isTrue();
            assertThat(store.get(k)).contains(v);
            assertThat(allOf(store, KeyPrefix.family(k.family()))).contains(new Entry(k, v));
        }
        for (String s : LOOK_ALIKES) {
            assertThat(store.delete(MetaKey.of(s), MetaValue.utf8("public " + s))
                            .isApplied())
                    .isTrue();
        }
        for (String s : LOOK_ALIKES) {
            store.create(MetaKey.of(s), MetaValue.utf8("again " + s));
        }
    }

    private static List<Entry> publicEntries(MetaStore store) {
        List<Entry> all = new ArrayList<>();
        for (String s : LOOK_ALIKES) {
            all.addAll(allOf(store, KeyPrefix.family(MetaKey.of(s).family())));
        }
        return all;
    }

    /** Every entry of a prefix, page by page (a DynamoDB page may be empty and still hand back a token). */
    private static List<Entry> allOf(MetaStore store, KeyPrefix prefix) {
        List<Entry> all = new ArrayList<>();
        java.util.Optional<io.lake.meta.PageRequest> request =
                java.util.Optional.of(io.lake.meta.PageRequest.first(prefix, 100));
        while (request.isPresent()) {
            io.lake.meta.Page page = store.page(request.get());
            all.addAll(page.entries());
            request = request.get().next(page);
        }
        return all;
    }

    private static byte[] readRaw(Path dir, byte[] key) throws Exception {
        try (Options o = new Options();
                RocksDB db = RocksDB.openReadOnly(o, dir.toString())) {
            return db.get(key);
        }
    }
}
