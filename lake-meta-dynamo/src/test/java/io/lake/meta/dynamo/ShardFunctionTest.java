package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins the shard function: shard = (first 8 bytes of SHA-256(UTF-8 key), unsigned big-endian)
 * mod shardCount. These vectors were computed independently (Python hashlib); if one fails,
 * the function changed and every existing table would be read from the wrong shards.
 */
class ShardFunctionTest {

    @ParameterizedTest(name = "{0} -> {1}/{2}/{3}/{4}")
    @CsvSource(
            delimiter = '|',
            value = {
                // key                              | mod 16 | mod 1024 | mod 7 | mod 2
                "tbl/ns1/orders                     | 6      | 614      | 2     | 0",
                "a/b                                | 13     | 925      | 6     | 1",
                "lease/leader                       | 10     | 26       | 2     | 0",
                "ops/0001                           | 14     | 686      | 2     | 0",
                "tbl/ns1/τ-表                       | 6      | 870      | 3     | 0",
                "0/x                                | 7      | 71       | 4     | 1",
                "fam-1_x/with/slashes/and spaces    | 13     | 861      | 6     | 1",
            })
    void shardOf_matchesPinnedVectors(String key, int mod16, int mod1024, int mod7, int mod2) {
        MetaKey k = MetaKey.of(key);
        assertThat(ShardFunction.shardOf(k, 16)).isEqualTo(mod16);
        assertThat(ShardFunction.shardOf(k, 1024)).isEqualTo(mod1024);
        assertThat(ShardFunction.shardOf(k, 7)).isEqualTo(mod7);
        assertThat(ShardFunction.shardOf(k, 2)).isEqualTo(mod2);
        assertThat(ShardFunction.shardOf(k, 1)).isZero();
    }

    @Test
    void shardOf_readsTheDigestUnsigned() {
        // SHA-256("lease/leader") starts fe3d10334a8eec1a: negative as a signed long. A signed
        // remainder would give -5 (mod 7) or a different shard after Math.abs; unsigned gives 2.
        assertThat(ShardFunction.shardOf(MetaKey.of("lease/leader"), 7)).isEqualTo(2);
    }

    @Test
    void shardOf_spreadsKeysOverEveryShard() {
        int[] counts = new int[16];
        for (int i = 0; i < 1600; i++) {
            counts[ShardFunction.shardOf(MetaKey.of("tbl/k" + i), 16)]++;
        }
        assertThat(java.util.Arrays.stream(counts).boxed())
                .allSatisfy(c -> assertThat(c).isBetween(60, 140));
    }

    @Test
    void shardOf_rejectsNonPositiveShardCount() {
        assertThatThrownBy(() -> ShardFunction.shardOf(MetaKey.of("a/b"), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
