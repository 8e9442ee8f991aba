package io.lake.meta.cli.demo;

import io.lake.meta.MetaKey;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableSpec;
import java.util.List;

/**
 * The demo's tables: typed registrations under {@code tbl/<namespace>/<name>}, written through the
 * table registry, so every record under {@code tbl/} is one that {@code lake-meta tables} reads.
 */
final class Tables {

    static final String SALES = "sales";

    /** Every table the demo registers. */
    static final List<TableId> ALL = List.of(
            TableId.of(SALES, "orders"),
            TableId.of(SALES, "customers"),
            TableId.of(SALES, "invoices"),
            TableId.of(SALES, "refunds"),
            TableId.of(SALES, "returns"),
            TableId.of("ops", "audit"),
            TableId.of("ops", "events"));

    static final TableId ORDERS = TableId.of(SALES, "orders");
    static final MetaKey ORDERS_KEY = ORDERS.key();

    private Tables() {}

    static TableSpec spec(TableId id) {
        return TableSpec.of("s3://lake/" + id, "iceberg");
    }

    static long countIn(String namespace) {
        return ALL.stream().filter(t -> t.namespace().equals(namespace)).count();
    }

    /** A registration as the demo narrates it: generation and properties. */
    static String describe(TableRegistration r) {
        return "generation " + r.generation() + (r.properties().isEmpty() ? "" : ", " + r.properties());
    }
}
