package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Figures;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.RedisClient;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.ReplicaPair;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Replicas of the packaged app, killed, stopped and restarted for real while they deliver. */
class ReplicaFaultsIT {

    private static final String PATH = "/replica-faults";

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    private final String keyPrefix = keys.prefix();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void aReplicaKilledWithDeliveriesInFlightLosesNothingAndIsTakenOverWithinTheLease() {
        Duration lease = Duration.ofSeconds(3);
        // A timeout far longer than the answers are held: no request is given up and sent again while it waits.
        Map<String, String> settings =
                settings(Map.of("reminders.claim.lease", "3s", "reminders.webhook.timeout", "60s"));
        try (ReplicaPair replicas = ReplicaPair.start("kill", settings)) {
            Replica a = replicas.a();
            receiver.holdAnswers();
            Instant sendAt = createDue(replicas, 200);
            int due = 200;
            await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(20)))
                    .until(() ->
                            receiver.unanswered().size() >= 20 && hasRequestsOn(a.connectionPortsTo(receiver.port())));

            Instant stoppedAt = Instant.now();
            Set<Integer> portsOfA = a.freeze(receiver.port());
            a.kill();
            receiver.releaseAnswers();

            await().atMost(lease.plusSeconds(20)).until(() -> distinct() >= due);
            // B's resends can complete the count while A's last requests are still unread: the receiver is done with
            // A once it has closed every connection of A's, and only then is what it received complete.
            await().atMost(Duration.ofSeconds(20)).until(() -> receiver.closedConnectionsFrom(portsOfA));
            List<Received> received = receiver.on(PATH);
            Figures figures = Figures.of(due, received).print("Replica killed with kill -9");
            assertThat(figures.delivered()).isEqualTo(due);
            // Every answer was held until after the kill, so whatever A sent was in flight when it stopped, even what
            // the receiver read only later: only those may arrive twice.
            Set<String> inFlightInA = received.stream()
                    .filter(request -> portsOfA.contains(request.clientPort()))
                    .map(Received::deliveryId)
                    .collect(Collectors.toSet());
            assertThat(inFlightInA).isNotEmpty();
            assertThat(duplicated(received)).isSubsetOf(inFlightInA);
            // Taken over once the lease ends. The 5 s after it are room for a loaded machine to send the rest (the
            // bound was 1 s, which a pause of the three JVMs on two cores could pass), not a measure of speed.
            assertThat(lastFirstArrival(received))
                    .isBefore(stoppedAt.plus(lease).plusSeconds(5));
        }
    }

    @Test
    void aReplicaStoppedWithSigtermFinishesOrHandsBackItsDeliveriesAndExitsInTime() {
        // A long lease: whatever the stopped replica neither finished nor handed back would arrive a minute late.
        Map<String, String> settings =
                settings(Map.of("reminders.claim.lease", "60s", "reminders.webhook.timeout", "5s"));
        try (ReplicaPair replicas = ReplicaPair.start("term", settings)) {
            Replica a = replicas.a();
            receiver.holdAnswers();
            Instant sendAt = createDue(replicas, 300);
            int due = 300;
            await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(20)))
                    .until(() -> receiver.unanswered().size() >= 20);

            int subscribed = subscriptionsOf(a);
            assertThat(subscribed).as("A's subscriptions in Redis").isPositive();
            CompletableFuture<Duration> stopping =
                    CompletableFuture.supplyAsync(() -> a.terminate(Duration.ofSeconds(30)));
            // Stopping begins by no longer hearing expirations: from then on, what A has in flight is answered to a
            // replica on its way out.
            await().atMost(Duration.ofSeconds(30)).until(() -> subscriptionsOf(a) < subscribed);
            receiver.releaseAnswers();

            Duration exitedAfter = stopping.join();
            await().atMost(Duration.ofSeconds(20)).until(() -> distinct() >= due);
            Figures figures = Figures.of(due, receiver.on(PATH)).print("Replica stopped with SIGTERM");
            System.out.printf("The stopped replica exited %d ms after SIGTERM%n", exitedAfter.toMillis());
            assertThat(figures.delivered()).isEqualTo(due);
            assertThat(figures.duplicates()).isZero();
            // The bound the README documents: the webhook timeout plus 5 s.
            assertThat(exitedAfter).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void remindersDueWhileEveryReplicaWasDownAreSentOnceOnStartUnlessTheirMeetingHasStarted() {
        Map<String, String> settings = settings(Map.of("reminders.delivery.late-cutoff", "1s"));
        Instant sendAt;
        List<String> notStarted;
        List<String> started;
        long starting = System.nanoTime();
        try (Replica a = Replica.start("down-a", settings)) {
            // The replica must be down before the reminders fall due: it stops faster than it started.
            Duration stopping = Duration.ofNanos(System.nanoTime() - starting);
            Duration lead = LeadTime.toCreate(10, 5, () -> IntStream.range(0, 5).forEach(i -> create(a, meeting())));
            sendAt = Moments.now().plus(lead).plus(stopping);
            Instant dueAt = sendAt;
            notStarted = IntStream.range(0, 5)
                    .mapToObj(i ->
                            create(a, meeting().startsAt(dueAt.plusSeconds(30)).remindBefore("PT30S")))
                    .toList();
            started = IntStream.range(0, 5)
                    .mapToObj(i ->
                            create(a, meeting().startsAt(dueAt.plusSeconds(1)).remindBefore("PT1S")))
                    .toList();
            a.terminate(Duration.ofSeconds(30));
        }
        LeadTime.requireBefore(sendAt);
        // Every replica is down while the reminders fall due and the second group's meetings start.
        Moments.waitUntil(sendAt.plusSeconds(3));

        try (Replica restarted = Replica.start("down-a-again", settings)) {
            await().atMost(Duration.ofSeconds(20)).until(() -> distinct() >= notStarted.size());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> started.stream().allMatch(id -> "SKIPPED".equals(status(restarted, id))));
            Figures figures = Figures.of(notStarted.size() + started.size(), receiver.on(PATH))
                    .print("Every replica down");
            assertThat(receiver.on(PATH))
                    .extracting(r -> r.deliveryId().substring(0, 36))
                    .containsExactlyInAnyOrderElementsOf(notStarted);
            assertThat(figures.duplicates()).isZero();
        }
    }

    private Map<String, String> settings(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "quarkus.datasource.jdbc.url",
                database.jdbcUrl(),
                "reminders.redis.key-prefix",
                keyPrefix,
                "reminders.delivery.backoff",
                "200ms"));
        settings.putAll(overrides);
        return settings;
    }

    /** Reminders due within the same second, through both replicas; the first send time. */
    private Instant createDue(ReplicaPair replicas, int count) {
        return replicas.createDue(count, Duration.ofMillis(3), receiver.url(PATH), receiver.url("/probe"));
    }

    private String create(Replica replica, MeetingBody body) {
        return replica.create(body.webhookUrl(receiver.url(PATH)));
    }

    private static Object status(Replica replica, String id) {
        return given().baseUri("http://127.0.0.1")
                .port(replica.port())
                .get("/meetings/" + id + "/reminders")
                .then()
                .extract()
                .path("[0].status");
    }

    private long distinct() {
        return receiver.on(PATH).stream().map(Received::deliveryId).distinct().count();
    }

    private boolean hasRequestsOn(Set<Integer> clientPorts) {
        return receiver.on(PATH).stream().anyMatch(request -> clientPorts.contains(request.clientPort()));
    }

    private static Set<String> duplicated(List<Received> received) {
        return received.stream()
                .collect(Collectors.groupingBy(Received::deliveryId, Collectors.counting()))
                .entrySet()
                .stream()
                .filter(entry -> entry.getValue() > 1)
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /** When the last reminder to arrive for the first time arrived. */
    private static Instant lastFirstArrival(List<Received> received) {
        return received.stream()
                .collect(Collectors.toMap(Received::deliveryId, Received::at, (first, later) -> first))
                .values()
                .stream()
                .max(Instant::compareTo)
                .orElseThrow();
    }

    /**
     * The channels and patterns the replica's own connections to the machine's Redis subscribe to, by their client
     * names: other processes' subscriptions do not count.
     */
    private static int subscriptionsOf(Replica replica) {
        return RedisClient.onMachine().stream()
                .filter(client -> replica.ownsRedisClient(client.name()))
                .mapToInt(RedisClient::subscriptions)
                .sum();
    }
}
