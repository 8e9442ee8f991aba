package io.lake.meta.cli.ops;

import io.lake.meta.ops.OperationId;
import io.lake.meta.ops.OperationRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How the commands print an operation record: text fields or a JSON object. */
final class OperationView {

    private OperationView() {}

    /** One {@code field: value} line per field; times, outcome and reason only when set. */
    static List<String> fields(OperationRecord r) {
        List<String> lines = new ArrayList<>();
        lines.add("operation: " + r.id());
        lines.add("key: " + r.id().key());
        lines.add("state: " + r.state().wireName());
        lines.add("digest: " + r.payloadDigest());
        lines.add("owner: " + r.owner().holder() + " (epoch " + r.owner().epoch() + ")");
        lines.add("attempt: " + r.attempt());
        lines.add("started at: " + r.startedAt());
        r.endedAt().ifPresent(at -> lines.add("ended at: " + at));
        r.outcome().ifPresent(outcome -> lines.add("outcome: " + outcome));
        r.reason().ifPresent(reason -> lines.add("reason: " + reason));
        return lines;
    }

    static Map<String, Object> json(OperationRecord r) {
        Map<String, Object> json = identity(r.id());
        json.put("state", r.state().wireName());
        json.put("digest", r.payloadDigest());
        json.put("holder", r.owner().holder());
        json.put("epoch", r.owner().epoch());
        json.put("attempt", r.attempt());
        json.put("startedAt", r.startedAt().toString());
        r.endedAt().ifPresent(at -> json.put("endedAt", at.toString()));
        r.outcome().ifPresent(outcome -> json.put("outcome", outcome));
        r.reason().ifPresent(reason -> json.put("reason", reason));
        return json;
    }

    /** The operation's tenant, id and key, as JSON fields. */
    static Map<String, Object> identity(OperationId id) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("tenant", id.tenant());
        json.put("operationId", id.operationId());
        json.put("key", id.key().toString());
        return json;
    }
}
