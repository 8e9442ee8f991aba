package com.example.catalog;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * One node of a catalog service: a lake-meta store, an election for the catalog's lease, and
 * every write made through the fenced store, so that a node that lost the lease cannot publish.
 */
public final class CatalogNode implements AutoCloseable {

    static final MetaKey LEASE = MetaKey.of("lease/catalog");

    private final MetaStore store;
    private final LeaderElection election;
    private final MetaStore fenced;

    /** A node over {@code store}, campaigning as {@code nodeId}; the node closes the store. */
    public CatalogNode(MetaStore store, String nodeId) {
        this.store = store;
        this.election = LeaderElection.builder()
                .store(store)
                .leaseKey(LEASE)
                .candidateId(nodeId)
                .leaseDuration(Duration.ofSeconds(15))
                .build();
        this.fenced = FencedMetaStore.over(store, election);
    }

    /** A node on an embedded RocksDB store in {@code directory}. */
    public static CatalogNode onRocksDb(Path directory, String nodeId) {
        return new CatalogNode(RocksDbMetaStore.builder().directory(directory).build(), nodeId);
    }

    /** Starts campaigning in the background. */
    public void start() {
        election.start();
    }

    /** Waits up to {@code timeout} for this node to lead. */
    public boolean awaitLeadership(Duration timeout) throws InterruptedException {
        return election.awaitLeadership(timeout);
    }

    /** Runs one campaign round now; true when this node leads afterwards. */
    public boolean campaign() {
        election.campaignOnce();
        return election.isLeader();
    }

    /** Registers a table, only while this node leads; a lost race is an answer, not an exception. */
    public WriteResult register(String namespace, String table, String json) {
        return fenced.create(MetaKey.of("tbl/" + namespace + "/" + table), MetaValue.utf8(json));
    }

    /** The registration of a table, read from the store. */
    public Optional<String> registration(String namespace, String table) {
        return store.get(MetaKey.of("tbl/" + namespace + "/" + table)).map(MetaValue::asUtf8);
    }

    /** Resigns, stops campaigning and closes the store. */
    @Override
    public void close() {
        election.close();
        store.close();
    }
}
