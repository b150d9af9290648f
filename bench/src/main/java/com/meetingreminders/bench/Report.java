package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** latest.json, latest.md and the table printed at the end of a run. */
final class Report {

    private Report() {}

    static void write(Path dir, List<Result> results, String header) throws IOException {
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("latest.json").toFile(), results);
        Files.writeString(dir.resolve("latest.md"), header + "\n\n" + table(results));
    }

    static String table(List<Result> results) {
        StringBuilder table = new StringBuilder(
                "| scenario | system | expected | delivered | dup | p50 ms | p99 ms | max ms | drain ms | other |\n"
                        + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result result : results) {
            table.append("| ")
                    .append(result.name)
                    .append(" | ")
                    .append(result.system)
                    .append(" | ")
                    .append(text(result.expected))
                    .append(" | ")
                    .append(text(result.delivered))
                    .append(" | ")
                    .append(text(result.duplicates))
                    .append(" | ")
                    .append(text(result.p50))
                    .append(" | ")
                    .append(text(result.p99))
                    .append(" | ")
                    .append(text(result.max))
                    .append(" | ")
                    .append(text(result.drain))
                    .append(" | ")
                    .append(figures(result.figures))
                    .append(" |\n");
        }
        return table.toString();
    }

    private static String figures(Map<String, Object> figures) {
        return figures.entrySet().stream()
                .map(entry -> entry.getKey() + " " + entry.getValue())
                .collect(Collectors.joining(", "));
    }

    private static String text(Long value) {
        return value == null ? "" : value.toString();
    }
}
