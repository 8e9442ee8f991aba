package io.lake.meta.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Transaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code families()} on PostgreSQL is a skip scan, not a read of the table: the executed plan of
 * its statement (EXPLAIN ANALYZE) over 3 000 keys in three families has no sequential scan, and
 * its index scans return one row per family plus the probe that finds the end.
 */
class PostgresFamiliesPlanTest {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    private static final Pattern INDEX_SCAN_ROWS =
            Pattern.compile("Index (?:Only )?Scan.*\\(actual time=\\S+ rows=(\\d+) loops=(\\d+)\\)");

    @Test
    void familiesReadOneIndexRowPerFamily_notTheTable() throws Exception {
        PgStore store = (PgStore) PostgresMetaStore.builder()
                .dataSource(DB.database().pool())
                .table("families_plan")
                .createTableIfMissing(true)
                .build();
        try (store) {
            for (String family : new String[] {"a", "ab", "tbl"}) {
                for (int batch = 0; batch < 10; batch++) {
                    Transaction.Builder transaction = Transaction.builder();
                    for (int i = 0; i < 100; i++) {
                        transaction.create(MetaKey.of(family + "/k" + (batch * 100 + i)), MetaValue.utf8("v"));
                    }
                    assertThat(store.transact(transaction.build()).isApplied()).isTrue();
                }
            }
            assertThat(store.families()).containsExactly("a", "ab", "tbl");

            StringBuilder plan = new StringBuilder();
            try (Connection connection = DB.database().pool().getConnection()) {
                connection.createStatement().execute("ANALYZE " + store.table().sql());
                try (PreparedStatement explain =
                        connection.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF) " + store.familiesSql)) {
                    explain.setInt(1, 1001);
                    try (ResultSet rows = explain.executeQuery()) {
                        while (rows.next()) {
                            plan.append(rows.getString(1)).append('\n');
                        }
                    }
                }
            }
            assertThat(plan).as(plan.toString()).doesNotContain("Seq Scan");
            long indexRows = 0;
            Matcher matcher = INDEX_SCAN_ROWS.matcher(plan);
            while (matcher.find()) {
                indexRows += Long.parseLong(matcher.group(1)) * Long.parseLong(matcher.group(2));
            }
            // three families: the first probe, two more, and the probe past the last that finds nothing
            assertThat(indexRows).as(plan.toString()).isBetween(3L, 4L);
        }
    }
}
