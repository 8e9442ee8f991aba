/**
 * The in-process DynamoDB-compatible test server: {@code DynamoDbTestServer} and its hooks, the
 * faults tests arm and the statistics they read. The engine, the expression language, the item
 * model and the wire protocol are the server's inside and are not exported.
 */
module io.lake.meta.testserver.dynamodb {
    requires com.fasterxml.jackson.databind;
    requires jdk.httpserver;
    requires static transitive org.jspecify; // nullness annotations of the API: read by tools, not needed to run

    exports io.lake.meta.testserver.dynamodb;
    exports io.lake.meta.testserver.dynamodb.fault;
    exports io.lake.meta.testserver.dynamodb.stats;
}
