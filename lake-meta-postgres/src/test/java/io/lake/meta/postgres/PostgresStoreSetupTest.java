package io.lake.meta.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Opening a store on a table: created when asked, refused (before anything is written, saying what
 * was found) when missing, foreign, of a newer format or of other columns; the builder's rules; a
 * data source the store never closes; pages bounded in bytes as well as in entries.
 */
class PostgresStoreSetupTest {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    private static PostgresMetaStore.Builder builder(String table) {
        return PostgresMetaStore.builder().dataSource(DB.database().pool()).table(table);
    }

    private static String sqlText(String sql) throws SQLException {
        try (Connection connection = DB.database().pool().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = DB.database().pool().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Test
    void aMissingTable_isRefusedWithoutCreateTableIfMissing_andNothingIsCreated() throws Exception {
        String table = DB.database().newTableName();
        assertThatThrownBy(() -> builder(table).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("table " + table + " does not exist")
                .hasMessageContaining("createTableIfMissing(true)");
        assertThat(sqlText("SELECT to_regclass('" + table + "')::text")).isNull();
    }

    @Test
    void createTableIfMissing_createsTheTable_withItsFormatInTheComment_andAStoreReopensIt() throws Exception {
        String table = DB.database().newTableName();
        try (MetaStore store = builder(table).createTableIfMissing(true).build()) {
            store.create(MetaKey.of("tbl/a"), MetaValue.utf8("1"));
        }
        assertThat(sqlText("SELECT obj_description('" + table + "'::regclass, 'pg_class')"))
                .isEqualTo("lake-meta store, format 1");
        try (MetaStore reopened = builder(table).build()) {
            assertThat(reopened.get(MetaKey.of("tbl/a"))).contains(MetaValue.utf8("1"));
        }
    }

    @Test
    void aTableOfAnotherProgram_isRefused_sayingWhatWasFound_andIsLeftAsItWas() throws Exception {
        String table = DB.database().newTableName();
        execute("CREATE TABLE " + table + " (id int PRIMARY KEY, name text)");
        execute("INSERT INTO " + table + " VALUES (1, 'theirs')");

        assertThatThrownBy(() -> builder(table).createTableIfMissing(true).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("is not a lake-meta table")
                .hasMessageContaining("comment is missing")
                .hasMessageContaining("[id integer not null, name text]");
        assertThat(sqlText("SELECT obj_description('" + table + "'::regclass, 'pg_class')"))
                .isNull();
        assertThat(sqlText("SELECT count(*) FROM " + table)).isEqualTo("1");
    }

    @Test
    void aTableOfANewerFormat_isRefused_namingBothFormats() throws Exception {
        String table = DB.database().newTableName();
        builder(table).createTableIfMissing(true).build().close();
        execute("COMMENT ON TABLE " + table + " IS 'lake-meta store, format 2'");

        assertThatThrownBy(() -> builder(table).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("lake-meta format 2, newer than format 1");
    }

    @Test
    void aLakeMetaCommentOnOtherColumns_isRefused() throws Exception {
        String table = DB.database().newTableName();
        execute("CREATE TABLE " + table + " (k text PRIMARY KEY, v bytea NOT NULL)");
        execute("COMMENT ON TABLE " + table + " IS 'lake-meta store, format 1'");

        assertThatThrownBy(() -> builder(table).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("but its columns are [k text not null, v bytea not null]");
    }

    @Test
    void builderRules() {
        assertThatThrownBy(() -> PostgresMetaStore.builder().table("Lake-Meta"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("lower-case SQL name");
        assertThatThrownBy(() -> PostgresMetaStore.builder().table("a.b.c"))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> PostgresMetaStore.builder().table("x; DROP TABLE y"))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> PostgresMetaStore.builder().dataSource(null))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> PostgresMetaStore.builder().table("a").table("b"))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> PostgresMetaStore.builder().pollInterval(Duration.ofMillis(1)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> PostgresMetaStore.builder().resolutionTimeout(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> PostgresMetaStore.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dataSource");
    }

    @Test
    void aSchemaQualifiedTable_works() throws Exception {
        execute("CREATE SCHEMA IF NOT EXISTS meta");
        try (MetaStore store =
                builder("meta.lake_meta").createTableIfMissing(true).build()) {
            assertThat(store.create(MetaKey.of("tbl/a"), MetaValue.utf8("1"))).isEqualTo(WriteResult.applied());
        }
        assertThat(sqlText("SELECT count(*) FROM meta.lake_meta")).isEqualTo("1");
    }

    @Test
    void twoStoresOnOneTable_seeEachOthersWrites_andClosingOneLeavesTheDataSourceOpen() throws Exception {
        String table = DB.database().newTableName();
        MetaStore first = builder(table).createTableIfMissing(true).build();
        try (MetaStore second = builder(table).build()) {
            first.create(MetaKey.of("tbl/a"), MetaValue.utf8("1"));
            first.close();
            assertThat(second.update(MetaKey.of("tbl/a"), MetaValue.utf8("1"), MetaValue.utf8("2")))
                    .isEqualTo(WriteResult.applied());
            assertThat(sqlText("SELECT 1")).as("the pool is still open").isEqualTo("1");
        }
    }

    @Test
    void aPageStopsAtItsByteBudget_andItsTokenResumesAfterIt() throws Exception {
        try (MetaStore store = DB.newStore()) {
            byte[] large = new byte[256 * 1024];
            for (int i = 0; i < 20; i++) { // 5 MiB under the prefix, more than a page's 4 MiB
                large[0] = (byte) i;
                store.create(MetaKey.of(String.format("tbl/big/%02d", i)), MetaValue.of(large));
            }
            Page first = store.page(KeyPrefix.of("tbl/big/"), 100);
            assertThat(first.entries()).hasSizeBetween(1, 16);
            assertThat(first.nextToken()).isPresent();

            List<MetaKey> all = new ArrayList<>();
            Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.of("tbl/big/"), 100));
            while (request.isPresent()) {
                Page page = store.page(request.get());
                page.entries().forEach(e -> all.add(e.key()));
                request = request.get().next(page);
            }
            assertThat(all).hasSize(20).isSorted();
        }
    }
}
