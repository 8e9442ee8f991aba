package io.lake.meta.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;

/** What a run measured: the rows with their ratios and targets, and the machine's load while it ran. */
public record BenchReport(String plan, List<BenchRow> rows, List<MachineLoad> loads, Path jmhLog) {

    public BenchReport {
        rows = List.copyOf(rows);
        loads = List.copyOf(loads);
    }

    public boolean allMet() {
        return rows.stream().allMatch(BenchRow::met);
    }

    /** A Markdown table, then the load averages. */
    public String toText() {
        StringBuilder out = new StringBuilder();
        out.append("lake-meta bench (")
                .append(plan)
                .append(" run) on ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ")
                .append(System.getProperty("java.version"))
                .append("\n\n");
        out.append("| row | lake-meta | against | baseline | ratio | target | met | note |\n");
        out.append("|---|---:|---|---:|---:|---|---|---|\n");
        for (BenchRow r : rows) {
            out.append("| ")
                    .append(r.row())
                    .append(" | ")
                    .append(BenchRow.format(r.value()))
                    .append(' ')
                    .append(r.unit())
                    .append(" | ")
                    .append(r.against())
                    .append(" | ")
                    .append(BenchRow.format(r.baseline()))
                    .append(" | ")
                    .append(BenchRow.format(r.ratio()))
                    .append(" | ")
                    .append(r.target())
                    .append(" | ")
                    .append(r.met() ? "yes" : "NO")
                    .append(" | ")
                    .append(r.note())
                    .append(" |\n");
        }
        out.append("\nload average (1, 5, 15 min) before -> after each group:\n");
        for (MachineLoad load : loads) {
            out.append("  ")
                    .append(load.group())
                    .append(": ")
                    .append(load.before())
                    .append(" -> ")
                    .append(load.after())
                    .append('\n');
        }
        out.append("JMH's own output: ").append(jmhLog).append('\n');
        return out.toString();
    }

    public String toJson() {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("plan", plan);
        root.put("cores", Runtime.getRuntime().availableProcessors());
        root.put("java", System.getProperty("java.version"));
        root.put("allMet", allMet());
        ArrayNode rowNodes = root.putArray("rows");
        for (BenchRow r : rows) {
            ObjectNode node = rowNodes.addObject();
            node.put("row", r.row());
            node.put("unit", r.unit());
            node.put("value", r.value());
            node.put("against", r.against());
            node.put("baseline", r.baseline());
            node.put("ratio", r.ratio());
            node.put("target", r.target().toString());
            node.put("met", r.met());
            node.put("note", r.note());
        }
        ArrayNode loadNodes = root.putArray("loadAverages");
        for (MachineLoad load : loads) {
            loadNodes
                    .addObject()
                    .put("group", load.group())
                    .put("before", load.before())
                    .put("after", load.after());
        }
        root.put("jmhLog", jmhLog.toString());
        try {
            return mapper.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
