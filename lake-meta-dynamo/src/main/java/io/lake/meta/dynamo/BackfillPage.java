package io.lake.meta.dynamo;

/**
 * What one backfill page did ({@link DynamoMigration#backfillPage(int)}), and where the backfill
 * stands after it.
 *
 * @param scanned legacy items the page's Scan evaluated (at most the page size)
 * @param copied items created in the v2 table
 * @param alreadyEqual items the v2 table already held with the same bytes (a dual write, or a replay)
 * @param reloaded items whose legacy value changed (or vanished) between the Scan and the copy,
 *     read again with a strongly consistent read and copied from that read
 * @param done whether the backfill has reached the end of the legacy table
 * @param totals the durable cursor's totals, this page included
 * @since 0.1.0
 */
public record BackfillPage(
        long scanned, long copied, long alreadyEqual, long reloaded, boolean done, BackfillTotals totals) {

    /**
     * The backfill's durable progress, as its cursor records it.
     *
     * @param pages pages completed
     * @param scanned legacy items evaluated
     * @param copied items created in the v2 table
     * @param alreadyEqual items found already equal
     * @param reloaded items read again because they changed meanwhile
     * @param done whether the backfill has reached the end of the legacy table
     */
    public record BackfillTotals(
            long pages, long scanned, long copied, long alreadyEqual, long reloaded, boolean done) {

        static final BackfillTotals NONE = new BackfillTotals(0, 0, 0, 0, 0, false);

        BackfillTotals plus(long scanned, long copied, long alreadyEqual, long reloaded, boolean done) {
            return new BackfillTotals(
                    pages + 1,
                    this.scanned + scanned,
                    this.copied + copied,
                    this.alreadyEqual + alreadyEqual,
                    this.reloaded + reloaded,
                    done);
        }
    }
}
