package com.meetingreminders.support;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/** Two packaged replicas, started side by side on one database and one key prefix, and stopped together. */
public record ReplicaPair(Replica a, Replica b) implements AutoCloseable {

    /** Signs what goes to the deployment's default target, as a deployment would. */
    private static final String DEPLOYMENT_SECRET = "whsec_3Cj7Jb2P0BBLz/TeR460GJVNceP1WtVUfE4tLFD+GJQ=";

    /** Starts both at once, on this database and key prefix, as replicas {@code a} and {@code b}. */
    public static ReplicaPair start(OwnDatabase database, String keyPrefix) {
        return start(
                "",
                Map.of(
                        "quarkus.datasource.jdbc.url",
                        database.jdbcUrl(),
                        "reminders.redis.key-prefix",
                        keyPrefix,
                        "reminders.webhook.secret",
                        DEPLOYMENT_SECRET));
    }

    /**
     * Starts both at once with these settings, as {@code name-a} and {@code name-b} (their logs are
     * target/replica-{name}-a.log and -b.log; with an empty name, replica-a.log and replica-b.log): a replica's start
     * takes seconds, and nothing in one waits for the other.
     */
    public static ReplicaPair start(String name, Map<String, String> settings) {
        String prefix = name.isEmpty() ? "" : name + "-";
        CompletableFuture<Replica> startingA =
                CompletableFuture.supplyAsync(() -> Replica.start(prefix + "a", settings));
        CompletableFuture<Replica> startingB =
                CompletableFuture.supplyAsync(() -> Replica.start(prefix + "b", settings));
        // Whichever fails to start, the other is stopped: a failed start leaves nothing running.
        Replica a;
        try {
            a = startingA.join();
        } catch (RuntimeException failed) {
            startingB.thenAccept(Replica::close).exceptionally(ignored -> null).join();
            throw failed;
        }
        try {
            return new ReplicaPair(a, startingB.join());
        } catch (RuntimeException failed) {
            a.close();
            throw failed;
        }
    }

    /**
     * Creates the meetings (up to 2,000), the even-numbered through a and the others through b, in one batch through
     * each and both at once: a batch is one transaction, many times faster than one create per meeting.
     */
    public void createAll(List<MeetingBody> meetings) {
        List<MeetingBody> throughA = everyOther(0, meetings);
        List<MeetingBody> throughB = everyOther(1, meetings);
        CompletableFuture<?> createdThroughB = throughB.isEmpty()
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.supplyAsync(() -> b.createAll(throughB));
        if (!throughA.isEmpty()) {
            a.createAll(throughA);
        }
        createdThroughB.join();
    }

    /**
     * Creates {@code count} meetings through both ({@link #createAll}), whose one reminder each goes to
     * {@code webhookUrl}, {@code spacing} apart from the send time it returns. That time is sized with {@link LeadTime}
     * from batches of as many meetings that never fall due (to {@code probeUrl}), so that every meeting exists before
     * the first falls due. The meetings start a minute after their reminders, so that a slow creation would make a
     * reminder due at once rather than skipped.
     */
    public Instant createDue(int count, Duration spacing, String webhookUrl, String probeUrl) {
        Duration lead = LeadTime.toCreate(
                count,
                count,
                () -> createAll(IntStream.range(0, count)
                        .mapToObj(i -> MeetingBody.meeting().webhookUrl(probeUrl))
                        .toList()));
        Instant sendAt = LeadTime.fromNow(lead);
        createAll(IntStream.range(0, count)
                .mapToObj(i -> MeetingBody.meeting()
                        .startsAt(sendAt.plus(spacing.multipliedBy(i)).plusSeconds(60))
                        .remindBefore("PT60S")
                        .webhookUrl(webhookUrl))
                .toList());
        LeadTime.requireBefore(sendAt);
        return sendAt;
    }

    private static List<MeetingBody> everyOther(int first, List<MeetingBody> meetings) {
        return IntStream.iterate(first, i -> i < meetings.size(), i -> i + 2)
                .mapToObj(meetings::get)
                .toList();
    }

    /** The replica for the i-th of many calls: they alternate, so that both take their share. */
    public Replica inTurn(int i) {
        return i % 2 == 0 ? a : b;
    }

    @Override
    public void close() {
        try (Replica first = a;
                Replica second = b) {
            // Both closed, the second even when closing the first fails.
        }
    }
}
