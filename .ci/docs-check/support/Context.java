package docscheck.support;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lock.LockHold;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.TableLockProvider;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.registry.TableRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What the prose around a {@code body in=Context} or {@code members in=Context} snippet says the
 * reader already has: the store they opened, their election, their own helper methods. Only
 * declared: these snippets are compiled, not run.
 */
public abstract class Context {
    protected MetaStore store;
    protected javax.sql.DataSource dataSource;
    protected Path dir;
    protected DynamoDbClient client;
    protected LeaderElection election;
    protected TableRegistry registry;
    protected String hostName;
    protected long pid;
    protected String nodeId;
    protected List<MetaKey> tables;
    protected MetaKey table;
    protected MetaKey key;
    protected MetaValue next;
    protected MeterRegistry meterRegistry;
    protected DynamoMigration migration;
    protected TableLockProvider tableLocks;
    protected TableMaintainer maintainer;
    protected MaintenanceLimits limits;
    protected ScheduledExecutorService scheduler;
    protected Request request;
    protected Logger log;

    /** A request of the reader's service, as the operation journal snippet handles it. */
    public interface Request {
        String idempotencyKey();

        byte[] body();
    }

    /** The reader's own exceptions the journal snippet throws. */
    public static final class TryLater extends RuntimeException {
        public TryLater(Object owner) {
            super(String.valueOf(owner));
        }
    }

    public static final class Rejected extends RuntimeException {
        public Rejected(String reason) {
            super(reason);
        }
    }

    protected abstract void stopWorkUnder(LockHold hold);

    protected abstract void stopBackgroundWork();

    protected abstract void assign(long id);

    protected abstract void compact(String location);

    protected abstract void decideAndWrite(MetaStore store);

    protected abstract String now();

    protected abstract void deleteRecursively(String location);

    protected abstract String sha256Hex(byte[] bytes);

    protected abstract String run(Request request);
}
