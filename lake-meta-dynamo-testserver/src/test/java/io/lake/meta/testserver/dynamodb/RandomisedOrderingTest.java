package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Sort keys from a seeded random source, read back through paged Queries in both directions,
 * against orders computed here independently of the server.
 */
class RandomisedOrderingTest extends ServerTestSupport {

    private static final long SEED = 20261129L;

    private static String randomString(Random random) {
        StringBuilder b = new StringBuilder();
        int length = 1 + random.nextInt(4);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(4)) {
                case 0:
                    b.append((char) ('a' + random.nextInt(3)));
                    break;
                case 1:
                    b.appendCodePoint(0xE000 + random.nextInt(0x1FFF));
                    break; // private use, BMP high
                case 2:
                    b.appendCodePoint(0x1F600 + random.nextInt(64));
                    break; // surrogate pairs
                default:
                    b.appendCodePoint(0x80 + random.nextInt(0x700));
                    break; // two-byte UTF-8
            }
        }
        return b.toString();
    }

    private static List<Map<String, AttributeValue>> readAll(String table, boolean forward) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        client.queryPaginator(r -> r.tableName(table)
                        .keyConditionExpression("pk = :p")
                        .scanIndexForward(forward)
                        .limit(7)
                        .expressionAttributeValues(Map.of(":p", s("p"))))
                .items()
                .forEach(items::add);
        return items;
    }

    @Test
    void strings_comeBackInUnsignedUtf8ByteOrder() {
        createTable("rnd_s", ScalarAttributeType.S);
        Random random = new Random(SEED);
        Set<String> keys = new LinkedHashSet<>();
        while (keys.size() < 60) {
            keys.add(randomString(random));
        }
        keys.forEach(k -> client.putItem(r -> r.tableName("rnd_s").item(Map.of("pk", s("p"), "sk", s(k)))));
        List<String> expected = keys.stream()
                .sorted(Comparator.comparing((String k) -> k.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned))
                .collect(Collectors.toList());
        assertThat(readAll("rnd_s", true)).extracting(i -> i.get("sk").s()).containsExactlyElementsOf(expected);
        List<String> reversed = new ArrayList<>(expected);
        java.util.Collections.reverse(reversed);
        assertThat(readAll("rnd_s", false)).extracting(i -> i.get("sk").s()).containsExactlyElementsOf(reversed);
    }

    @Test
    void binaries_comeBackInUnsignedByteOrder() {
        createTable("rnd_b", ScalarAttributeType.B);
        Random random = new Random(SEED + 1);
        List<byte[]> keys = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        while (keys.size() < 40) {
            byte[] k = new byte[1 + random.nextInt(3)];
            random.nextBytes(k);
            if (seen.add(Arrays.toString(k))) {
                keys.add(k);
            }
        }
        keys.forEach(k -> client.putItem(r -> r.tableName("rnd_b")
                .item(Map.of(
                        "pk",
                        s("p"),
                        "sk",
                        AttributeValue.builder().b(SdkBytes.fromByteArray(k)).build()))));
        List<String> expected = keys.stream()
                .sorted(Arrays::compareUnsigned)
                .map(Arrays::toString)
                .collect(Collectors.toList());
        assertThat(readAll("rnd_b", true))
                .extracting(i -> Arrays.toString(i.get("sk").b().asByteArray()))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void numbers_comeBackInNumericOrderNormalised() {
        createTable("rnd_n", ScalarAttributeType.N);
        Random random = new Random(SEED + 2);
        Set<BigDecimal> keys = new LinkedHashSet<>();
        while (keys.size() < 50) {
            BigDecimal v = BigDecimal.valueOf(random.nextInt(2_000_001) - 1_000_000, random.nextInt(6) - 2);
            keys.add(v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros());
        }
        keys.forEach(k -> client.putItem(r -> r.tableName("rnd_n").item(Map.of("pk", s("p"), "sk", n(k.toString())))));
        List<String> expected = keys.stream()
                .sorted()
                .map(v -> v.signum() == 0 ? "0" : v.toPlainString())
                .collect(Collectors.toList());
        assertThat(readAll("rnd_n", true)).extracting(i -> i.get("sk").n()).containsExactlyElementsOf(expected);
    }
}
