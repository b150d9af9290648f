package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The measured inputs of docs/scaling.md: {@code bench/scaling [--reminders N] [--rows N] [--delivered N]}. Redis
 * figures come from a redis-server of its own ({@link ScalingRedis}), PostgreSQL figures from a scratch database on
 * the machine's server ({@link ScalingPostgres}); printed, and written to bench/results/scaling.md and .json.
 */
public final class Scaling {

    /** Each figure with how it was measured, in the order measured. */
    static final class Figures {
        private final Map<String, Object> values = new LinkedHashMap<>();
        private final Map<String, String> how = new LinkedHashMap<>();

        void add(String name, Object value, String measuredBy) {
            values.put(name, value);
            how.put(name, measuredBy);
            System.out.printf(Locale.ROOT, "%-52s %14s  %s%n", name, value, measuredBy);
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> options = List.of(args);
        long reminders = option(options, "--reminders", 1_000_000);
        long rows = option(options, "--rows", 1_000_000);
        long delivered = option(options, "--delivered", 100_000);
        Instant started = Instant.now();
        Figures figures = new Figures();
        figures.add("load_average_at_start", loadAverage(), "/proc/loadavg (1, 5, 15 min)");
        try {
            int port = ChildProcess.freePort();
            ChildProcess.redis("scaling-redis", port, ChildProcess.LOGS, List.of());
            ScalingRedis redis = new ScalingRedis(port, figures);
            try {
                redis.memory(reminders, 12);
                for (long members : List.of(100_000L, reminders)) {
                    new ScalingScripts(redis).scriptCosts(members);
                }
            } finally {
                redis.close();
            }
        } finally {
            ChildProcess.stopAll();
        }
        new ScalingPostgres(figures).run(rows, delivered);
        figures.add("load_average_at_end", loadAverage(), "/proc/loadavg (1, 5, 15 min)");
        write(figures, started, String.join(" ", options));
    }

    private static void write(Figures figures, Instant started, String options) throws Exception {
        Path results = Path.of("bench", "results");
        Files.createDirectories(results);
        StringBuilder md = new StringBuilder(String.format(
                Locale.ROOT,
                "Measured %s with `bench/scaling%s` (%d s), %d cores; Redis of its own, the machine's PostgreSQL.%n%n"
                        + "| figure | value | measured by |%n|---|---|---|%n",
                started,
                options.isEmpty() ? "" : " " + options,
                Duration.between(started, Instant.now()).toSeconds(),
                Runtime.getRuntime().availableProcessors()));
        figures.values.forEach((name, value) -> md.append("| ")
                .append(name)
                .append(" | ")
                .append(value)
                .append(" | ")
                .append(figures.how.get(name))
                .append(" |\n"));
        Files.writeString(results.resolve("scaling.md"), md);
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(results.resolve("scaling.json").toFile(), figures.values);
        System.out.println(md);
    }

    private static long option(List<String> options, String name, long otherwise) {
        int at = options.indexOf(name);
        return at < 0 ? otherwise : Long.parseLong(options.get(at + 1).replace("_", ""));
    }

    private static String loadAverage() throws Exception {
        List<String> parts = new ArrayList<>(
                List.of(Files.readString(Path.of("/proc/loadavg")).trim().split(" ")));
        return String.join(" ", parts.subList(0, 3));
    }
}
