package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * {@link FamilyScan} is a skip scan: over 3 000 keys in three families (and an internal record
 * before them) it seeks once per family plus once to start, and never steps with {@code next}.
 * RocksDB's own statistics count the iterator calls.
 */
class FamilyScanTest {

    @TempDir
    Path directory;

    @Test
    void oneSeekPerFamily_noStepOverTheKeys() throws Exception {
        RocksDB.loadLibrary();
        try (Statistics statistics = new Statistics();
                Options options = new Options().setCreateIfMissing(true).setStatistics(statistics);
                RocksDB db = RocksDB.open(options, directory.toString())) {
            db.put(Keys.FORMAT_MARKER, new byte[] {1});
            for (String family : new String[] {"a", "ab", "tbl"}) {
                for (int i = 0; i < 1000; i++) {
                    db.put((family + "/k" + i).getBytes(StandardCharsets.UTF_8), new byte[] {2});
                }
            }
            long seeksBefore = statistics.getTickerCount(TickerType.NUMBER_DB_SEEK);
            long nextsBefore = statistics.getTickerCount(TickerType.NUMBER_DB_NEXT);

            assertThat(FamilyScan.families(db, "test store")).containsExactly("a", "ab", "tbl");

            assertThat(statistics.getTickerCount(TickerType.NUMBER_DB_SEEK) - seeksBefore)
                    .isEqualTo(4);
            assertThat(statistics.getTickerCount(TickerType.NUMBER_DB_NEXT) - nextsBefore)
                    .isZero();
        }
    }
}
