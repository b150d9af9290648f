package com.meetingreminders.bench;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.postgresql.PGConnection;

/**
 * The PostgreSQL inputs of docs/scaling.md, in a scratch database made and dropped here: the service's schema (its
 * Flyway migrations, src/main/resources/db/migration, applied in version order), {@code rows} meetings with one
 * reminder each loaded with COPY, their table and index sizes, and the rate of the delivery rounds' writes.
 */
final class ScalingPostgres {

    /** reminders.delivery.batch-size's default: reminders a delivery round records in one transaction. */
    private static final int ROUND = 100;
    /** reminders.delivery.workers' default: threads that record rounds at once, in one replica. */
    private static final int WORKERS = 4;

    private static final int COPY_CHUNK = 100_000;
    private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final String database = "scaling_" + System.currentTimeMillis();
    private final Scaling.Figures figures;

    ScalingPostgres(Scaling.Figures figures) {
        this.figures = figures;
    }

    void run(long rows, long delivered) throws Exception {
        Postgres.execute("postgres", "create database " + database);
        try {
            migrate();
            load(rows);
            sizes(rows);
            deliver(delivered);
        } finally {
            Postgres.execute("postgres", "drop database if exists " + database + " with (force)");
        }
    }

    private void migrate() throws Exception {
        List<Path> migrations;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            migrations = files.sorted(Comparator.comparingInt(ScalingPostgres::version))
                    .toList();
        }
        try (Connection connection = Postgres.connect(database);
                Statement sql = connection.createStatement()) {
            for (Path migration : migrations) {
                sql.execute(Files.readString(migration));
            }
        }
        figures.add("pg_migrations_applied", migrations.size(), "src/main/resources/db/migration, V1 to the last");
    }

    private static int version(Path migration) {
        String name = migration.getFileName().toString();
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }

    /**
     * Meetings as a one-off create stores them (one attendee, a webhook, the default remindBefore PT5M) and their
     * reminder each, SCHEDULED over the next week, with a traceparent; loaded with COPY, the schema's indexes in place.
     */
    private void load(long rows) throws Exception {
        long now = System.currentTimeMillis();
        long meetingNanos = 0;
        long reminderNanos = 0;
        try (Connection connection = Postgres.connect(database)) {
            PGConnection pg = connection.unwrap(PGConnection.class);
            for (long from = 0; from < rows; from += COPY_CHUNK) {
                StringBuilder meetings = new StringBuilder();
                StringBuilder reminders = new StringBuilder();
                for (long i = from; i < Math.min(rows, from + COPY_CHUNK); i++) {
                    UUID id = new UUID(now, i);
                    Instant startsAt = Instant.ofEpochMilli(now + 600_000 + (i * 7L * 24 * 3600 * 1000) / rows);
                    Instant sendAt = startsAt.minusSeconds(300);
                    String created = Instant.ofEpochMilli(now).toString();
                    meetings.append(String.join(
                                    "\t",
                                    id.toString(),
                                    "Weekly sync " + i,
                                    startsAt.toString(),
                                    "Europe/Paris",
                                    "{PT5M}",
                                    "{attendee" + i % 1000 + "@example.com}",
                                    "https://hooks.example.com/reminders",
                                    "0",
                                    created,
                                    created,
                                    "https://issuer.example.com|caller-" + i % 1000))
                            .append('\n');
                    reminders
                            .append(String.join(
                                    "\t",
                                    id.toString(),
                                    sendAt.toString(),
                                    "PT5M",
                                    "SCHEDULED",
                                    "0",
                                    startsAt.toString(),
                                    TRACE))
                            .append('\n');
                }
                meetingNanos += copy(
                        pg,
                        "meeting (id, title, starts_at, time_zone, remind_before, attendees, webhook_url, version,"
                                + " created_at, updated_at, owner)",
                        meetings);
                reminderNanos += copy(
                        pg,
                        "reminder (meeting_id, send_at, remind_before, status, attempts, occurrence, trace_parent)",
                        reminders);
            }
            try (Statement sql = connection.createStatement()) {
                sql.execute("vacuum analyze meeting");
                sql.execute("vacuum analyze reminder");
            }
        }
        figures.add(
                "pg_copy_meetings_per_s", Math.round(rows / (meetingNanos / 1e9)), "COPY meeting, indexes in place");
        figures.add(
                "pg_copy_reminders_per_s",
                Math.round(rows / (reminderNanos / 1e9)),
                "COPY reminder, indexes and the foreign key in place");
    }

    /** COPY of tab-separated rows into {@code table (columns)}; returns how long it took, in nanoseconds. */
    private static long copy(PGConnection pg, String table, CharSequence rows) throws Exception {
        long started = System.nanoTime();
        pg.getCopyAPI().copyIn("copy " + table + " from stdin", new StringReader(rows.toString()));
        return System.nanoTime() - started;
    }

    private void sizes(long rows) throws Exception {
        try (Connection connection = Postgres.connect(database);
                Statement sql = connection.createStatement()) {
            for (String table : List.of("meeting", "reminder")) {
                try (ResultSet size = sql.executeQuery("select pg_total_relation_size('" + table + "'),"
                        + " pg_relation_size('" + table + "'), pg_indexes_size('" + table + "')")) {
                    size.next();
                    figures.add("pg_" + table + "_total_bytes_" + rows, size.getLong(1), "pg_total_relation_size");
                    figures.add("pg_" + table + "_heap_bytes_" + rows, size.getLong(2), "pg_relation_size");
                    figures.add("pg_" + table + "_index_bytes_" + rows, size.getLong(3), "pg_indexes_size");
                    figures.add(
                            "pg_" + table + "_total_bytes_per_row",
                            size.getLong(1) / rows,
                            "pg_total_relation_size / rows");
                }
            }
        }
    }

    /**
     * Records {@code count} reminders DELIVERED as delivery rounds do: a transaction of {@link #ROUND} that locks its
     * rows, reads their meetings and updates them, {@link #WORKERS} at once, each committed (synchronous_commit as
     * the server has it).
     */
    private void deliver(long count) throws Exception {
        List<long[]> rounds = new ArrayList<>();
        try (Connection connection = Postgres.connect(database);
                Statement sql = connection.createStatement();
                ResultSet ids = sql.executeQuery("select id from reminder order by send_at limit " + count)) {
            List<Long> batch = new ArrayList<>();
            while (ids.next()) {
                batch.add(ids.getLong(1));
                if (batch.size() == ROUND) {
                    rounds.add(batch.stream().mapToLong(Long::longValue).toArray());
                    batch.clear();
                }
            }
        }
        ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
        long started = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            done.add(workers.submit(() -> {
                try (Connection connection = Postgres.connect(database);
                        PreparedStatement lock = connection.prepareStatement("select r.id, m.title, m.webhook_url"
                                + " from reminder r join meeting m on m.id = r.meeting_id where r.id = any(?)"
                                + " order by r.id for no key update of r");
                        PreparedStatement record = connection.prepareStatement("update reminder set status ="
                                + " 'DELIVERED', attempts = attempts + 1, delivered_at = ?, next_attempt_at = null"
                                + " where id = any(?)")) {
                    connection.setAutoCommit(false);
                    for (int r = worker; r < rounds.size(); r += WORKERS) {
                        Array ids = connection.createArrayOf(
                                "bigint", Arrays.stream(rounds.get(r)).boxed().toArray());
                        lock.setArray(1, ids);
                        lock.executeQuery().close();
                        record.setTimestamp(1, Timestamp.from(Instant.now()));
                        record.setArray(2, ids);
                        record.executeUpdate();
                        connection.commit();
                    }
                }
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get();
        }
        workers.shutdown();
        double seconds = (System.nanoTime() - started) / 1e9;
        long recorded = (long) rounds.size() * ROUND;
        figures.add(
                "pg_delivered_updates_per_s",
                Math.round(recorded / seconds),
                recorded + " reminders recorded DELIVERED in rounds of " + ROUND + ", " + WORKERS + " at once");
        figures.add("pg_delivery_rounds_per_s", Math.round(rounds.size() / seconds), "transactions committed a second");
    }
}
