package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The refusal to open a table that holds items but no layout record. The record fixes the shard
 * count the keys were placed with; a store that guessed another count would look for every key
 * in the wrong shard and report it absent (and then write a second copy). So the store refuses,
 * and says what the sampled items show and what record to write back.
 */
final class MissingLayoutRecord {

    /** A v2 hash key: a family, '#', a shard number. */
    private static final Pattern BUCKET = Pattern.compile("([a-z0-9][a-z0-9_-]{0,31})#(\\d{1,4})");

    private static final int COUNTS_SHOWN = 8;

    private MissingLayoutRecord() {}

    /**
     * @param sample the items a bounded scan found (none of them the layout record)
     * @param more whether the table holds more than the sample
     */
    static DynamoStoreException refusal(String table, List<Map<String, AttributeValue>> sample, boolean more) {
        List<Placement> placements = new ArrayList<>();
        List<Map<String, AttributeValue>> foreign = new ArrayList<>();
        for (Map<String, AttributeValue> item : sample) {
            placementOf(item).ifPresentOrElse(placements::add, () -> foreign.add(item));
        }
        String found = sample.isEmpty()
                ? "items (DynamoDB reported more to scan)"
                : (more ? "at least " : "") + sample.size() + " item(s)";
        String head = "DynamoDB table '" + table + "' has no layout record (the item pk = sk = \"" + V2Layout.LAYOUT_KEY
                + "\")";
        if (placements.isEmpty()) {
            String example = foreign.isEmpty() ? "" : " (for example " + keyOf(foreign.get(0)) + ")";
            return new DynamoStoreException(head + " and holds " + found + " that lake-meta did not write" + example
                    + ": lake-meta will not lay out a table that holds other data; use another table, or an empty one");
        }
        List<Integer> counts = countsPlacingAll(placements);
        return new DynamoStoreException(head + " but holds " + found
                + ": the record fixes the shard count the keys were placed with, and"
                + " opening with another count would report every key absent, so lake-meta will not guess. "
                + whatTheSampleShows(placements.size(), counts)
                + (foreign.isEmpty()
                        ? ""
                        : " (" + foreign.size() + " sampled item(s) do not look like lake-meta's, for" + " example "
                                + keyOf(foreign.get(0)) + ")")
                + ". Restore the record with the count the table was written with, then open the store again, e.g. "
                + "aws dynamodb put-item --table-name " + table + " --condition-expression 'attribute_not_exists(pk)'"
                + " --item '" + recordJson(counts.size() == 1 ? counts.get(0).toString() : "<N>") + "'");
    }

    private static String whatTheSampleShows(int sampled, List<Integer> counts) {
        if (counts.isEmpty()) {
            return "No single shard count places all " + sampled + " sampled lake-meta item(s) where they are: restore"
                    + " the record only with a count you know";
        }
        if (counts.size() == 1) {
            return "The " + sampled + " sampled lake-meta item(s) are placed as with shards = " + counts.get(0);
        }
        String shown = counts.stream().limit(COUNTS_SHOWN).map(String::valueOf).collect(Collectors.joining(", "))
                + (counts.size() > COUNTS_SHOWN ? ", … (" + counts.size() + " counts)" : "");
        return "The " + sampled + " sampled lake-meta item(s) are placed as with any of shards = " + shown
                + (counts.contains(V2Layout.DEFAULT_SHARDS) ? " (" + V2Layout.DEFAULT_SHARDS + " is the default)" : "");
    }

    /** The layout record as the AWS CLI writes it. */
    private static String recordJson(String shards) {
        return "{\"" + V2Layout.HASH + "\":{\"S\":\"" + V2Layout.LAYOUT_KEY + "\"},\"" + V2Layout.RANGE + "\":{\"S\":\""
                + V2Layout.LAYOUT_KEY + "\"},\"" + V2Layout.LAYOUT_FORMAT_ATTR + "\":{\"S\":\"" + V2Layout.LAYOUT_FORMAT
                + "\"},\"" + V2Layout.LAYOUT_VERSION_ATTR + "\":{\"N\":\"" + V2Layout.VERSION + "\"},\""
                + V2Layout.LAYOUT_SHARDS_ATTR + "\":{\"N\":\"" + shards + "\"}}";
    }

    /** A key lake-meta stored, and the shard its item sits in. */
    private record Placement(MetaKey key, int shard) {}

    /** The placement of an item in the v2 layout: {@code pk = family#shard}, {@code sk} a key of that family, a binary value. */
    private static Optional<Placement> placementOf(Map<String, AttributeValue> item) {
        AttributeValue pk = item.get(V2Layout.HASH);
        AttributeValue sk = item.get(V2Layout.RANGE);
        AttributeValue v = item.get(V2Layout.VALUE);
        if (pk == null || pk.s() == null || sk == null || sk.s() == null || v == null || v.b() == null) {
            return Optional.empty();
        }
        Matcher bucket = BUCKET.matcher(pk.s());
        if (!bucket.matches()) {
            return Optional.empty();
        }
        MetaKey key;
        try {
            key = MetaKey.of(sk.s());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        int shard = Integer.parseInt(bucket.group(2));
        if (!key.family().equals(bucket.group(1)) || shard >= V2Layout.MAX_SHARDS) {
            return Optional.empty();
        }
        return Optional.of(new Placement(key, shard));
    }

    /** The shard counts that put every sampled key in the shard it sits in, smallest first. */
    private static List<Integer> countsPlacingAll(List<Placement> placements) {
        long[] positions = placements.stream()
                .mapToLong(p -> ShardFunction.position(p.key()))
                .toArray();
        return IntStream.rangeClosed(V2Layout.MIN_SHARDS, V2Layout.MAX_SHARDS)
                .filter(n -> IntStream.range(0, positions.length)
                        .allMatch(i -> ShardFunction.shardOf(positions[i], n)
                                == placements.get(i).shard()))
                .boxed()
                .toList();
    }

    private static String keyOf(Map<String, AttributeValue> item) {
        return V2Layout.HASH + "=" + describe(item.get(V2Layout.HASH)) + ", " + V2Layout.RANGE + "="
                + describe(item.get(V2Layout.RANGE));
    }

    private static String describe(@Nullable AttributeValue value) {
        return value == null ? "(none)" : value.s() != null ? value.s() : value.toString();
    }
}
