package io.lake.meta.cli.tables;

import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** How the commands print a table registration: a text row, text fields, or a JSON object. */
public final class RegistrationView {

    private RegistrationView() {}

    /** {@code NAMESPACE/NAME<TAB>STATE<TAB>GENERATION<TAB>FORMAT<TAB>LOCATION}. */
    static String row(TableRegistration r) {
        return r.id() + "\t" + r.state().wireName() + "\t" + r.generation() + "\t" + r.format() + "\t" + r.location();
    }

    /** One {@code field: value} line per field, properties in name order. */
    static List<String> fields(TableRegistration r) {
        List<String> lines = new ArrayList<>();
        lines.add("table: " + r.id());
        lines.add("key: " + r.id().key());
        lines.add("state: " + r.state().wireName());
        lines.add("generation: " + r.generation());
        lines.add("format: " + r.format());
        lines.add("location: " + r.location());
        new TreeMap<>(r.properties()).forEach((name, value) -> lines.add("property " + name + ": " + value));
        r.droppedAt().ifPresent(at -> lines.add("dropped at: " + at));
        r.purgeStartedAt().ifPresent(at -> lines.add("purge started at: " + at));
        return lines;
    }

    /** The registration as JSON fields; times only when set. */
    public static Map<String, Object> json(TableRegistration r) {
        Map<String, Object> json = identity(r.id());
        json.put("state", r.state().wireName());
        json.put("dropped", r.isDropped());
        json.put("generation", r.generation());
        json.put("format", r.format());
        json.put("location", r.location());
        json.put("properties", new TreeMap<>(r.properties()));
        r.droppedAt().ifPresent(at -> json.put("droppedAt", at.toString()));
        r.purgeStartedAt().ifPresent(at -> json.put("purgeStartedAt", at.toString()));
        return json;
    }

    /** The table's name and key, as JSON fields. */
    static Map<String, Object> identity(TableId id) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("table", id.toString());
        json.put("namespace", id.namespace());
        json.put("name", id.name());
        json.put("key", id.key().toString());
        return json;
    }
}
