package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * What a DynamoDB store's watches poll through: when the table is gone (deleted by a test's
 * teardown or an operator), the watches end quietly, once, instead of warning on every poll
 * that the table was not found. The store's own calls still report the missing table.
 */
final class TableGoneEndsWatches extends ForwardingMetaStore {

    private static final Logger LOG = LoggerFactory.getLogger(TableGoneEndsWatches.class);

    private final String description;
    private final Runnable endWatches;
    private final AtomicBoolean ended = new AtomicBoolean();

    TableGoneEndsWatches(MetaStore store, String description, Runnable endWatches) {
        super(store);
        this.description = description;
        this.endWatches = endWatches;
    }

    @Override
    public Page page(PageRequest request) {
        try {
            return super.page(request);
        } catch (DynamoStoreException e) {
            if (!causedByMissingTable(e)) {
                throw e;
            }
            if (ended.compareAndSet(false, true)) {
                LOG.info("{}: the table was deleted; its watches end", description);
                endWatches.run();
            }
            throw new StoreClosedException(description + " (its table was deleted)");
        }
    }

    private static boolean causedByMissingTable(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ResourceNotFoundException) {
                return true;
            }
        }
        return false;
    }
}
