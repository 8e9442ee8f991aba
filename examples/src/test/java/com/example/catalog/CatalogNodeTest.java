package com.example.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaStore;
import io.lake.meta.WriteResult;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.spi.ForwardingMetaStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogNodeTest {

    @TempDir
    Path dir;

    @Test
    void aLeaderRegistersTables_throughTheFencedStore() throws Exception {
        try (CatalogNode node = CatalogNode.onRocksDb(dir.resolve("catalog"), "node-a")) {
            node.start();
            assertThat(node.awaitLeadership(Duration.ofSeconds(30)))
                    .as("node-a leads")
                    .isTrue();

            assertThat(node.register("sales", "orders", "{\"format\":\"iceberg\"}"))
                    .isEqualTo(WriteResult.applied());
            assertThat(node.registration("sales", "orders")).contains("{\"format\":\"iceberg\"}");
            assertThat(node.register("sales", "orders", "{\"format\":\"delta\"}"))
                    .isEqualTo(
                            WriteResult.conflict(Optional.of(io.lake.meta.MetaValue.utf8("{\"format\":\"iceberg\"}"))));
        }
    }

    @Test
    void aNodeThatDoesNotLead_writesNothing() {
        try (MetaStore shared = RocksDbMetaStore.builder()
                        .directory(dir.resolve("shared"))
                        .build();
                CatalogNode leader = new CatalogNode(notClosing(shared), "node-a");
                CatalogNode follower = new CatalogNode(notClosing(shared), "node-b")) {
            assertThat(leader.campaign()).isTrue();
            assertThat(follower.campaign()).as("the lease is node-a's").isFalse();

            assertThatThrownBy(() -> follower.register("sales", "orders", "{}")).isInstanceOf(FencedException.class);
            assertThat(leader.registration("sales", "orders")).isEmpty();
        }
    }

    /** The nodes share one store, which the test closes. */
    private static MetaStore notClosing(MetaStore store) {
        return new ForwardingMetaStore(store) {
            @Override
            public void close() {}
        };
    }
}
