package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** latest.json, latest.md (or latest-only-{family}.*) and the table printed at the end of a run. */
final class Report {

    private Report() {}

    /** {@code name}.json and {@code name}.md in {@code dir}. */
    static void write(Path dir, String name, List<Result> results, String header) throws IOException {
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve(name + ".json").toFile(), results);
        Files.writeString(dir.resolve(name + ".md"), header + "\n\n" + table(results));
    }

    static String table(List<Result> results) {
        StringBuilder table = new StringBuilder(
                "| scenario | system | expected | delivered | dup | p50 ms | p99 ms | max ms | drain ms | other |\n"
                        + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result result : results) {
            table.append(Stream.of(
                            result.name,
                            result.system,
                            text(result.expected),
                            text(result.delivered),
                            text(result.duplicates),
                            text(result.p50),
                            text(result.p99),
                            text(result.max),
                            text(result.drain),
                            figures(result.figures))
                    .collect(Collectors.joining(" | ", "| ", " |\n")));
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
