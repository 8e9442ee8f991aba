package io.lake.meta.cli.demo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.List;

/** The demo's table records: JSON values under {@code tbl/<namespace>/<name>}. */
final class Tables {

    static final String SALES = "sales";

    /** Namespace and name of every table the demo registers. */
    static final List<String[]> ALL = List.of(
            new String[] {SALES, "orders"},
            new String[] {SALES, "customers"},
            new String[] {SALES, "invoices"},
            new String[] {SALES, "refunds"},
            new String[] {SALES, "returns"},
            new String[] {"ops", "audit"},
            new String[] {"ops", "events"});

    static final MetaKey ORDERS = key(SALES, "orders");

    private Tables() {
    }

    static MetaKey key(String namespace, String name) {
        return MetaKey.of("tbl/" + namespace + "/" + name);
    }

    static MetaValue record(String namespace, String name, int version) {
        return MetaValue.utf8("{\"format\":\"iceberg\",\"location\":\"s3://lake/" + namespace + "/" + name
                + "\",\"version\":" + version + "}");
    }

    static long countIn(String namespace) {
        return ALL.stream().filter(t -> t[0].equals(namespace)).count();
    }
}
