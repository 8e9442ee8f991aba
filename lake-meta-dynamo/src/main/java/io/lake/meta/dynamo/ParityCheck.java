package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Verifies that the legacy and the v2 table hold exactly the same keys with exactly the same
 * bytes, in two bounded passes: every legacy page's keys are read from the v2 table (batched),
 * then every v2 page's keys from the legacy table. Each pass also digests its table's content, so
 * the report can show that both sides saw the same whole. Memory is bounded by the page size and
 * the {@value ParityReport#DIFFERENCES_LISTED} differences listed, whatever the tables hold.
 */
final class ParityCheck {

    private final TableScan legacy;
    private final TableScan v2;
    private final BatchRead legacyReads;
    private final BatchRead v2Reads;

    ParityCheck(DynamoDbClient client, String legacyTable, String table, V2Layout layout) {
        this.legacy = new TableScan(client, legacyTable, V1Layout.INSTANCE);
        this.v2 = new TableScan(client, table, layout);
        this.legacyReads = new BatchRead(client, legacyTable, V1Layout.INSTANCE);
        this.v2Reads = new BatchRead(client, table, layout);
    }

    private static final class Findings {
        final List<ParityReport.Difference> listed = new ArrayList<>();
        long count;

        void add(MetaKey key, ParityReport.Kind kind) {
            count++;
            if (listed.size() < ParityReport.DIFFERENCES_LISTED) {
                listed.add(new ParityReport.Difference(key.toString(), kind));
            }
        }
    }

    ParityReport run(int pageSize) {
        Findings findings = new Findings();
        ContentDigest legacyDigest = new ContentDigest();
        ContentDigest v2Digest = new ContentDigest();
        Map<String, AttributeValue> start = null;
        do {
            TableScan.ScanPage page = legacy.page(pageSize, start);
            Map<MetaKey, MetaValue> copies = v2Reads.read(keysOf(page));
            for (TableScan.Item item : page.items()) {
                legacyDigest.add(item.key(), item.value());
                MetaValue copy = copies.get(item.key());
                if (copy == null) {
                    findings.add(item.key(), ParityReport.Kind.MISSING_IN_V2);
                } else if (!copy.equals(item.value())) {
                    findings.add(item.key(), ParityReport.Kind.DIFFERENT_BYTES);
                }
            }
            start = page.next().orElse(null);
        } while (start != null);
        do {
            TableScan.ScanPage page = v2.page(pageSize, start);
            Map<MetaKey, MetaValue> originals = legacyReads.read(keysOf(page));
            for (TableScan.Item item : page.items()) {
                v2Digest.add(item.key(), item.value());
                if (!originals.containsKey(item.key())) {
                    findings.add(item.key(), ParityReport.Kind.MISSING_IN_LEGACY);
                }
            }
            start = page.next().orElse(null);
        } while (start != null);
        return new ParityReport(
                legacyDigest.items(),
                v2Digest.items(),
                legacyDigest.value(),
                v2Digest.value(),
                findings.count,
                findings.listed);
    }

    private static List<MetaKey> keysOf(TableScan.ScanPage page) {
        return page.items().stream().map(TableScan.Item::key).toList();
    }
}
