package io.lake.meta.reliability.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Page tokens are not secrets: anyone can forge one, checksum and all, from the format the
 * codec documents. So the suite forges them — every partition number, positions of hostile bytes
 * (NUL, {@code ../}, {@code #}, lone surrogates encoded as CESU-8, invalid UTF-8, 0xFF, an empty
 * or a 60 000-byte position) under the caller's prefix and the layout each backend names — and
 * holds every answer to: a typed refusal, or a page whose every entry lies inside the prefix and
 * is a key some caller wrote (never a neighbour prefix's key, never an internal record).
 *
 * <p>Sizes: {@code -Dlake.meta.reliability.forgedTokens=N} per backend (2 000 by default, 50 000 under
 * {@code -Ptorture}).
 */
class TokenConfinementTest {

    private static final KeyPrefix PREFIX = KeyPrefix.of("tbl/a/");
    /** Inside the prefix, and around it: keys that sort just before and after it, other families. */
    private static final List<String> KEYS = List.of(
            "tbl/a/1",
            "tbl/a/2",
            "tbl/a/\u00E9",
            "tbl/a/z#9",
            "tbl/a",
            "tbl/a0",
            "tbl/a.",
            "tbl/a/",
            "tbl/b/1",
            "tbl/9",
            "tbl0/a/1",
            "lease/a/1",
            "lake-meta/format",
            "z/a/1");

    @TempDir
    Path work;

    @Test
    void model_forgedTokensStayInsideTheirPrefix() {
        try (MetaStore store = InMemoryMetaStore.create()) {
            run("token-confinement-model", store, InMemoryMetaStore.LAYOUT, 1);
        }
    }

    @Test
    void rocksDb_forgedTokensStayInsideTheirPrefix() {
        try (MetaStore store =
                RocksDbMetaStore.builder().directory(work.resolve("rocks")).build()) {
            run("token-confinement-rocksdb", store, "rocksdb/format=1", 1);
        }
    }

    @Test
    void dynamoDb_forgedTokensStayInsideTheirPrefix() {
        DynamoStores.target();
        try (DynamoDbClient client = DynamoStores.target().newClient();
                MetaStore store = DynamoStores.newStore(client, "tokens", 4)) {
            run("token-confinement-dynamodb", store, "dynamodb-v2/shards=4", 4);
        }
    }

    private void run(String area, MetaStore store, String layout, int partitions) {
        long seed = Runs.seed(area);
        int tokens = Runs.size("forgedTokens", 2_000, 50_000);
        Random r = new Random(seed);
        for (String k : KEYS) {
            store.create(MetaKey.of(k), MetaValue.utf8("v:" + k));
        }
        Map<String, Integer> outcomes = new TreeMap<>();
        List<String> leaks = new ArrayList<>();
        int accepted = 0;
        for (int i = 0; i < tokens; i++) {
            int partition = r.nextInt(10) == 0 ? r.nextInt() : r.nextInt(partitions + 1);
            byte[] position = position(r);
            String token = forge(layout, PREFIX, partition, position);
            try {
                Page page = store.page(PageRequest.after(PREFIX, token, 1 + r.nextInt(5)));
                accepted++;
                for (Entry e : page.entries()) {
                    if (!PREFIX.contains(e.key())
                            || !KEYS.contains(e.key().toString())
                            || !e.value().equals(MetaValue.utf8("v:" + e.key()))) {
                        leaks.add("a forged token (partition " + partition + ", position " + Arrays.toString(position)
                                + ") read " + e);
                    }
                }
                outcomes.merge("page", 1, Integer::sum);
            } catch (InvalidArgumentException e) {
                outcomes.merge(e.getClass().getSimpleName(), 1, Integer::sum);
            } catch (RuntimeException e) {
                leaks.add("untyped " + e + " for partition " + partition + ", position " + Arrays.toString(position));
            }
            if (leaks.size() > 10) {
                break;
            }
        }
        Runs.figures(
                area,
                "forged tokens=" + tokens + " (accepted as positions=" + accepted + "), outcomes=" + outcomes
                        + ", entries outside the prefix or untyped errors=" + leaks.size());
        assertThat(accepted)
                .as("some forged positions are real positions inside the prefix")
                .isPositive();
        assertThat(leaks).as("seed above").isEmpty();
    }

    private static byte[] position(Random r) {
        String[] texts = {"", "1", "2", "\u00E9", "z#9", "../", "../../b/1", "\u0000", "#", "/", "\uFFFF", "0", "\u007F"
        };
        switch (r.nextInt(5)) {
            case 0:
                return texts[r.nextInt(texts.length)].getBytes(StandardCharsets.UTF_8);
            case 1:
                return new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}; // a lone surrogate, CESU-8
            case 2: {
                byte[] b = new byte[r.nextInt(12)];
                r.nextBytes(b);
                return b;
            }
            case 3:
                return "x".repeat(r.nextBoolean() ? 1_100 : 60_000).getBytes(StandardCharsets.UTF_8);
            default:
                return (texts[r.nextInt(texts.length)] + (char) ('a' + r.nextInt(26))).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** A token in the codec's documented format, checksum included, with whatever partition and position. */
    static String forge(String layout, KeyPrefix prefix, int partition, byte[] position) {
        ByteBuffer out = ByteBuffer.allocate(1 + 4 + 8 + 4 + 1 + 2 + position.length + 4);
        out.put((byte) 1);
        out.put(sha256(layout.getBytes(StandardCharsets.UTF_8)), 0, 4);
        out.put(sha256(prefix.utf8()), 0, 8);
        out.putInt(partition);
        out.put((byte) 1);
        out.putShort((short) position.length);
        out.put(position);
        out.put(sha256(Arrays.copyOf(out.array(), out.position())), 0, 4);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
