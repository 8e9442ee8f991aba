package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.expr.Ast;
import io.lake.meta.testserver.dynamodb.expr.ConditionExpression;
import io.lake.meta.testserver.dynamodb.expr.Placeholders;
import io.lake.meta.testserver.dynamodb.expr.ProjectionExpression;
import io.lake.meta.testserver.dynamodb.model.AttrJson;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.model.ItemSize;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Query and Scan, with DynamoDB's page model: {@code Limit} counts evaluated items (before the
 * filter); a page also stops once the evaluated items' sizes pass 1 MB (the crossing item is
 * included); {@code ScannedCount} counts evaluated items, {@code Count} those that passed the
 * filter; {@code LastEvaluatedKey} is the key of the last evaluated item whenever the page was cut
 * short, including when Limit is reached exactly on the last item (no look-ahead), except for a
 * Query whose key condition fixes the whole primary key, which never carries one.
 */
final class ReadOperations {

    static final long PAGE_BYTES = 1024 * 1024;

    private final Database db;

    ReadOperations(Database db) {
        this.db = db;
    }

    /** The parts of a Query or Scan request shared by both. */
    private static final class Common {
        final String tableName;
        String capacityMode = "NONE"; // ReturnConsumedCapacity's default, until the request is read
        boolean consistent;

        @Nullable
        Integer limit;

        @Nullable
        String select;

        @Nullable
        ConditionExpression filter;

        @Nullable
        ProjectionExpression projection;

        @Nullable
        Map<String, AttrValue> exclusiveStartKey;

        Common(String tableName) {
            this.tableName = tableName;
        }
    }

    private Common common(String operation, ObjectNode body, boolean query) {
        rejectLegacyReads(operation, body);
        Common c = new Common(Requests.tableName(body, 1));
        c.select = Requests.optionalEnumValue(
                body, "Select", "select", "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES");
        Long limit = Requests.number(body, "Limit");
        if (limit != null && limit < 1) {
            throw Errors.validation(
                    query
                            ? "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"
                            : "1 validation error detected: Value '" + limit
                                    + "' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1");
        }
        c.limit = limit == null ? null : (int) Math.min(Integer.MAX_VALUE, limit);
        c.capacityMode = Requests.returnConsumedCapacity(body);
        c.consistent = Boolean.TRUE.equals(Requests.bool(body, "ConsistentRead"));
        c.exclusiveStartKey = AttrJson.readItem(Requests.member(body, "ExclusiveStartKey"));
        return c;
    }

    private static void rejectLegacyReads(String operation, ObjectNode body) {
        for (String legacy :
                List.of("AttributesToGet", "KeyConditions", "QueryFilter", "ScanFilter", "ConditionalOperator")) {
            if (Requests.member(body, legacy) != null) {
                throw Errors.unsupported("legacy parameter " + legacy + " of " + operation + " (use expressions)");
            }
        }
    }

    private static void checkSelect(Common c) {
        if ("ALL_PROJECTED_ATTRIBUTES".equals(c.select)) {
            throw Errors.validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        }
        if ("SPECIFIC_ATTRIBUTES".equals(c.select) && c.projection == null) {
            throw Errors.validation(
                    "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
        }
        if ("COUNT".equals(c.select) && c.projection != null) {
            throw Errors.validation("Cannot specify the ProjectionExpression when choosing to get only the Count");
        }
    }

    ObjectNode query(ObjectNode body) {
        Requests.onlyMembers(
                "Query",
                body,
                Set.of(
                        "TableName",
                        "IndexName",
                        "Select",
                        "Limit",
                        "ConsistentRead",
                        "ScanIndexForward",
                        "ExclusiveStartKey",
                        "ReturnConsumedCapacity",
                        "ProjectionExpression",
                        "FilterExpression",
                        "KeyConditionExpression",
                        "ExpressionAttributeNames",
                        "ExpressionAttributeValues",
                        "AttributesToGet",
                        "KeyConditions",
                        "QueryFilter",
                        "ConditionalOperator"));
        Common c = common("Query", body, true);
        boolean forward = !Boolean.FALSE.equals(Requests.bool(body, "ScanIndexForward"));
        String keySource = Requests.string(body, "KeyConditionExpression");
        if (keySource == null) {
            throw Errors.validation(
                    "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
        }
        String filterSource = Requests.string(body, "FilterExpression");
        String projectionSource = Requests.string(body, "ProjectionExpression");
        Placeholders placeholders = Placeholders.read(
                Requests.member(body, "ExpressionAttributeNames"),
                Requests.member(body, "ExpressionAttributeValues"),
                true,
                null);
        ConditionExpression keyCondition = ConditionExpression.parse(keySource, "KeyConditionExpression", placeholders);
        Table table = filterProjectionAndTable(c, body, filterSource, projectionSource, placeholders);
        QueryStartKey startKey =
                c.exclusiveStartKey == null ? null : new QueryStartKey(table.schema, c.exclusiveStartKey);
        KeyCondition key = KeyCondition.analyse(
                keyCondition, table.schema, startKey == null ? KeyCondition.StartKeyChecks.NONE : startKey);
        PrimaryKey start = startKey == null ? null : startKey.position(key);
        if (c.filter != null) {
            for (String attribute : filterAttributes(c.filter)) {
                if (table.schema.isKeyAttribute(attribute)) {
                    throw Errors.validation("Filter Expression can only contain non-primary key attributes: "
                            + "Primary key attribute: " + attribute);
                }
            }
        }
        Iterator<Map.Entry<PrimaryKey, Map<String, AttrValue>>> walk = table.partition(
                        key.hashValue, forward, start, key.lowerBound(), key.upperBound())
                .iterator();
        String rangeName = table.schema.rangeName();
        // the items a sort-key condition matches are contiguous in sort order: skip up to the
        // first match, stop at the first miss after it
        Iterator<Map.Entry<PrimaryKey, Map<String, AttrValue>>> matching = contiguousRun(
                walk,
                e -> key.matchesRange(rangeName == null ? null : e.getValue().get(rangeName)),
                e -> false);
        // a query that can match one item has nothing to resume, and refuses to be restarted
        return page(table, c, matching, !key.atMostOneItem());
    }

    /**
     * The rest of a Query or Scan request, in the order the service checks it: parses the filter
     * and the projection into {@code c}, checks that every placeholder was used and the Select,
     * then finds the table and refuses an index.
     */
    private Table filterProjectionAndTable(
            Common c,
            ObjectNode body,
            @Nullable String filterSource,
            @Nullable String projectionSource,
            Placeholders placeholders) {
        c.filter =
                filterSource == null ? null : ConditionExpression.parse(filterSource, "FilterExpression", placeholders);
        c.projection = projectionSource == null ? null : ProjectionExpression.parse(projectionSource, placeholders);
        placeholders.checkAllUsed();
        checkSelect(c);
        Table table = db.table(c.tableName);
        String index = Requests.string(body, "IndexName");
        if (index != null) {
            throw Errors.validation("The table does not have the specified index: " + index);
        }
        return table;
    }

    /** The top-level attribute names a filter reads. */
    private static List<String> filterAttributes(ConditionExpression filter) {
        List<String> names = new ArrayList<>();
        collectCond(filter, filter.root(), names);
        return names;
    }

    private static void collectCond(ConditionExpression e, Ast.Cond c, List<String> out) {
        if (c instanceof Ast.And a) {
            collectCond(e, a.left(), out);
            collectCond(e, a.right(), out);
        } else if (c instanceof Ast.Or o) {
            collectCond(e, o.left(), out);
            collectCond(e, o.right(), out);
        } else if (c instanceof Ast.Not n) {
            collectCond(e, n.operand(), out);
        } else if (c instanceof Ast.Paren p) {
            collectCond(e, p.inner(), out);
        } else if (c instanceof Ast.Compare cmp) {
            collectOperand(e, cmp.left(), out);
            collectOperand(e, cmp.right(), out);
        } else if (c instanceof Ast.Between b) {
            collectOperand(e, b.operand(), out);
            collectOperand(e, b.low(), out);
            collectOperand(e, b.high(), out);
        } else if (c instanceof Ast.In in) {
            collectOperand(e, in.operand(), out);
            in.candidates().forEach(o -> collectOperand(e, o, out));
        } else if (c instanceof Ast.Function f) {
            f.args().forEach(o -> collectOperand(e, o, out));
        }
    }

    private static void collectOperand(ConditionExpression e, Ast.Operand o, List<String> out) {
        if (o instanceof Ast.Path p) {
            out.add((String) e.steps(p).get(0));
        } else if (o instanceof Ast.Call call) {
            call.args().forEach(a -> collectOperand(e, a, out));
        }
    }

    /** A Scan's ExclusiveStartKey: every problem is "The provided starting key is invalid: <why>". */
    private static PrimaryKey scanStartKey(Table table, Map<String, AttrValue> exclusiveStartKey) {
        try {
            return table.schema.fromKey(exclusiveStartKey);
        } catch (DynamoException e) {
            throw Errors.validation("The provided starting key is invalid: " + e.getMessage());
        }
    }

    ObjectNode scan(ObjectNode body) {
        Requests.onlyMembers(
                "Scan",
                body,
                Set.of(
                        "TableName",
                        "IndexName",
                        "Select",
                        "Limit",
                        "ConsistentRead",
                        "ExclusiveStartKey",
                        "ReturnConsumedCapacity",
                        "ProjectionExpression",
                        "FilterExpression",
                        "ExpressionAttributeNames",
                        "ExpressionAttributeValues",
                        "Segment",
                        "TotalSegments",
                        "AttributesToGet",
                        "ScanFilter",
                        "ConditionalOperator"));
        Common c = common("Scan", body, false);
        Long segment = Requests.number(body, "Segment");
        Long totalSegments = Requests.number(body, "TotalSegments");
        List<String> problems = new ArrayList<>();
        if (segment != null && (segment < 0 || segment > 999_999)) {
            problems.add("Value '" + segment + "' at 'segment' failed to satisfy constraint: Member must have value "
                    + (segment < 0 ? "greater than or equal to 0" : "less than or equal to 999999"));
        }
        if (totalSegments != null && (totalSegments < 1 || totalSegments > 1_000_000)) {
            problems.add("Value '" + totalSegments
                    + "' at 'totalSegments' failed to satisfy constraint: Member must have value "
                    + (totalSegments < 1 ? "greater than or equal to 1" : "less than or equal to 1000000"));
        }
        Requests.throwIfAny(problems);
        if (segment != null && totalSegments == null) {
            throw Errors.validation("The TotalSegments parameter is required but was not present in the request when "
                    + "Segment parameter is present");
        }
        if (totalSegments != null && segment == null) {
            throw Errors.validation("The Segment parameter is required but was not present in the request when "
                    + "parameter TotalSegments is present");
        }
        if (segment != null && totalSegments != null && segment >= totalSegments) {
            throw Errors.validation(
                    "The Segment parameter is zero-based and must be less than parameter TotalSegments: " + "Segment: "
                            + segment + " is not less than TotalSegments: " + totalSegments);
        }
        String filterSource = Requests.string(body, "FilterExpression");
        String projectionSource = Requests.string(body, "ProjectionExpression");
        Placeholders placeholders = Placeholders.read(
                Requests.member(body, "ExpressionAttributeNames"),
                Requests.member(body, "ExpressionAttributeValues"),
                filterSource != null || projectionSource != null,
                filterSource != null ? null : "FilterExpression");
        Table table = filterProjectionAndTable(c, body, filterSource, projectionSource, placeholders);
        int total = totalSegments == null ? 1 : totalSegments.intValue();
        int mine = segment == null ? 0 : segment.intValue();
        PrimaryKey start = null;
        if (c.exclusiveStartKey != null) {
            start = scanStartKey(table, c.exclusiveStartKey);
            if (start.segment(total) != mine) {
                throw Errors.validation("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                        + "ExclusiveStartKey with correct Segment. TotalSegments: " + total + " Segment: " + mine);
            }
        }
        Map<PrimaryKey, Map<String, AttrValue>> range = start == null ? table.items : table.items.tailMap(start, false);
        Iterator<Map.Entry<PrimaryKey, Map<String, AttrValue>>> all =
                range.entrySet().iterator();
        // segments follow the walk's order: skip up to the first key of mine, stop at the first key past it
        Iterator<Map.Entry<PrimaryKey, Map<String, AttrValue>>> inSegment = contiguousRun(
                all, e -> e.getKey().segment(total) == mine, e -> e.getKey().segment(total) > mine);
        return page(table, c, inSegment, true);
    }

    /**
     * The entries of {@code walk} that {@code inRun} accepts, when those are contiguous in the walk:
     * skips the entries before the first of them, and stops at the first entry after one of them
     * that {@code inRun} refuses, or earlier, at the first refused entry that {@code pastRun} accepts.
     */
    private static Iterator<Map.Entry<PrimaryKey, Map<String, AttrValue>>> contiguousRun(
            Iterator<Map.Entry<PrimaryKey, Map<String, AttrValue>>> walk,
            Predicate<Map.Entry<PrimaryKey, Map<String, AttrValue>>> inRun,
            Predicate<Map.Entry<PrimaryKey, Map<String, AttrValue>>> pastRun) {
        return new Iterator<>() {
            private boolean matchedAny;
            private Map.@Nullable Entry<PrimaryKey, Map<String, AttrValue>> next = advance();

            private Map.@Nullable Entry<PrimaryKey, Map<String, AttrValue>> advance() {
                while (walk.hasNext()) {
                    Map.Entry<PrimaryKey, Map<String, AttrValue>> e = walk.next();
                    if (inRun.test(e)) {
                        matchedAny = true;
                        return e;
                    }
                    if (matchedAny || pastRun.test(e)) {
                        return null;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Map.Entry<PrimaryKey, Map<String, AttrValue>> next() {
                Map.Entry<PrimaryKey, Map<String, AttrValue>> e = next;
                if (e == null) {
                    throw new NoSuchElementException();
                }
                next = advance();
                return e;
            }
        };
    }

    /**
     * One page of {@code items}; {@code resumable} is false when the page holds every item the read
     * can match, so it never carries a LastEvaluatedKey.
     */
    private ObjectNode page(
            Table table, Common c, Iterator<Map.Entry<PrimaryKey, Map<String, AttrValue>>> items, boolean resumable) {
        List<Map<String, AttrValue>> matched = new ArrayList<>();
        long bytes = 0;
        int evaluated = 0;
        Map<String, AttrValue> last = null;
        boolean cut = false;
        while (items.hasNext()) {
            if ((c.limit != null && evaluated >= c.limit) || bytes > PAGE_BYTES) {
                cut = true;
                break;
            }
            Map<String, AttrValue> item = items.next().getValue();
            evaluated++;
            bytes += ItemSize.of(item);
            last = item;
            if (c.filter == null || c.filter.matches(item)) {
                matched.add(item);
            }
        }
        if (!cut && c.limit != null && evaluated >= c.limit && evaluated > 0) {
            cut = true; // Limit reached exactly at the end: DynamoDB may still send a key; this emulator always does
        }
        double units = Capacity.read(bytes, c.consistent);
        db.stats.evaluated(table.name, evaluated);
        db.stats.returned(table.name, "COUNT".equals(c.select) ? 0 : matched.size());
        db.stats.read(table.name, units);
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        if (!"COUNT".equals(c.select)) {
            ArrayNode out = response.putArray("Items");
            for (Map<String, AttrValue> item : matched) {
                out.add(AttrJson.write(c.projection == null ? item : c.projection.apply(item)));
            }
        }
        response.put("Count", matched.size());
        response.put("ScannedCount", evaluated);
        if (cut && last != null && resumable) {
            response.set("LastEvaluatedKey", AttrJson.write(table.schema.keyOf(last)));
        }
        ItemOperations.putIfNotNull(response, "ConsumedCapacity", Capacity.single(c.capacityMode, table.name, units));
        return response;
    }
}
