package com.meetingreminders.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The chaos run's verdict: every reminder of the database checked against what the receiver got and what the load
 * changed. Lost: due, and never received. Stale: received after the change that cancelled it was answered.
 * Duplicates count as from kills when a replica was killed between the first copy and the next.
 */
final class ChaosVerdict {

    final long due;
    final long delivered;
    final long lost;
    final long failed;
    long stale;
    long fromKills;
    long otherDuplicates;
    final List<Long> lateness = new ArrayList<>();

    private final Map<String, String> status = new HashMap<>();
    private final Map<String, List<Result.Arrival>> received = new HashMap<>();

    ChaosVerdict(String database, List<Result.Arrival> arrivals, ChaosLoad load, List<Instant> kills)
            throws SQLException {
        try (Connection connection = Postgres.connect(database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "select meeting_id, (extract(epoch from send_at) * 1000)::bigint, status from reminder")) {
            while (rows.next()) {
                status.put(rows.getString(1) + ":" + rows.getLong(2), rows.getString(3));
            }
        }
        for (Result.Arrival arrival : arrivals) {
            received.computeIfAbsent(arrival.id(), id -> new ArrayList<>()).add(arrival);
        }
        due = status.values().stream().filter(ChaosVerdict::wasDue).count();
        delivered = status.entrySet().stream()
                .filter(e -> !e.getValue().equals("CANCELLED") && !e.getValue().equals("SKIPPED"))
                .filter(e -> received.containsKey(e.getKey()))
                .count();
        lost = status.entrySet().stream()
                .filter(e -> wasDue(e.getValue()))
                .filter(e -> !received.containsKey(e.getKey()))
                .count();
        failed = status.values().stream().filter(s -> s.equals("FAILED")).count();
        countStale(load.changes);
        countCopies(kills, load.scheduledAt);
    }

    boolean holds() {
        return lost == 0 && stale == 0 && otherDuplicates == 0;
    }

    private static boolean wasDue(String status) {
        return status.equals("DELIVERED") || status.equals("FAILED") || status.equals("SCHEDULED");
    }

    private void countStale(List<ChaosLoad.Change> changes) {
        for (ChaosLoad.Change change : changes) {
            for (Map.Entry<String, List<Result.Arrival>> entry : received.entrySet()) {
                // A later reschedule back to the same send time revives a cancelled reminder: then it is rightly sent.
                boolean cancelledByIt = change.deletesAll()
                        ? entry.getKey().startsWith(change.meetingId()) && !status.containsKey(entry.getKey())
                        : change.cancelled().contains(entry.getKey())
                                && !"DELIVERED".equals(status.get(entry.getKey()));
                long answeredAt = change.answeredAt().toEpochMilli();
                if (cancelledByIt && entry.getValue().stream().anyMatch(a -> a.arrivedMillis() > answeredAt)) {
                    stale++;
                    System.out.println("STALE " + entry.getKey() + " after change answered at " + change.answeredAt());
                }
            }
        }
    }

    private void countCopies(List<Instant> kills, Map<String, List<Instant>> scheduledAt) {
        for (List<Result.Arrival> copies : received.values()) {
            copies.sort(Comparator.comparingLong(Result.Arrival::arrivedMillis));
            Result.Arrival first = copies.get(0);
            lateness.add(first.arrivedMillis() - dueFrom(first, scheduledAt));
            for (Result.Arrival again : copies.subList(1, copies.size())) {
                boolean killBetween = kills.stream()
                        .mapToLong(Instant::toEpochMilli)
                        .anyMatch(k -> k >= first.arrivedMillis() && k <= again.arrivedMillis());
                if (killBetween) {
                    fromKills++;
                } else {
                    otherDuplicates++;
                    System.out.println("DUPLICATE without a kill: " + first.id() + " sendAt "
                            + Instant.ofEpochMilli(first.dueMillis()) + " first "
                            + Instant.ofEpochMilli(first.arrivedMillis()) + " again "
                            + Instant.ofEpochMilli(again.arrivedMillis()));
                }
            }
        }
        lateness.sort(Long::compare);
    }

    /**
     * When a reminder became due: its send time, or, for one already due when it was scheduled (sent at once, by the
     * contract), the moment the request that scheduled it was sent.
     */
    private static long dueFrom(Result.Arrival arrival, Map<String, List<Instant>> scheduledAt) {
        String meetingId = arrival.id().substring(0, arrival.id().lastIndexOf(':'));
        long scheduled = scheduledAt.getOrDefault(meetingId, List.of()).stream()
                .mapToLong(Instant::toEpochMilli)
                .filter(sent -> sent <= arrival.arrivedMillis())
                .max()
                .orElse(arrival.dueMillis());
        return Math.max(scheduled, arrival.dueMillis());
    }

    String table() {
        return String.format(
                "| due | delivered | lost | stale | duplicates (from kills) | duplicates (other) | failed | lateness p50"
                        + " | p99 | max |%n"
                        + "|---|---|---|---|---|---|---|---|---|---|%n"
                        + "| %d | %d | %d | %d | %d | %d | %d | %d ms | %d ms | %d ms |%n",
                due,
                delivered,
                lost,
                stale,
                fromKills,
                otherDuplicates,
                failed,
                lateness.isEmpty() ? 0 : Result.percentile(lateness, 50),
                lateness.isEmpty() ? 0 : Result.percentile(lateness, 99),
                lateness.isEmpty() ? 0 : lateness.get(lateness.size() - 1));
    }
}
