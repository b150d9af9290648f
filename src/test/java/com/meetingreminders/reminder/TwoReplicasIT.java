package com.meetingreminders.reminder;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Database;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two packaged replicas as separate processes on one Redis and one database: 1,000 reminders falling due within the
 * same two seconds, created through both, each arrive exactly once.
 */
class TwoReplicasIT {

    private static final int MEETINGS = 100;
    /** Ten distinct remindBefore values 200 ms apart: each meeting's reminders span 1.8 s. */
    private static final String[] REMIND_BEFORE = IntStream.range(0, 10)
            .mapToObj(i -> Duration.ofMillis(200L * i).toString())
            .toArray(String[]::new);

    private final String database = "it_" + UUID.randomUUID().toString().replace("-", "");
    private final String keyPrefix = "it-" + UUID.randomUUID() + ":";

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @BeforeEach
    void createDatabase() {
        Database.execute("postgres", "create database " + database);
    }

    @AfterEach
    void dropDatabase() {
        Database.execute("postgres", "drop database if exists " + database + " with (force)");
    }

    @Test
    void deliversEachOfAThousandRemindersExactlyOnceAcrossTwoReplicas() {
        Map<String, String> settings = Map.of(
                "quarkus.datasource.jdbc.url",
                Database.SERVER + database,
                "reminders.redis.key-prefix",
                keyPrefix,
                "reminders.webhook.secret",
                "it-secret");
        CompletableFuture<Replica> startingA = CompletableFuture.supplyAsync(() -> Replica.start("a", settings));
        CompletableFuture<Replica> startingB = CompletableFuture.supplyAsync(() -> Replica.start("b", settings));
        try (Replica a = startingA.join();
                Replica b = startingB.join()) {
            String path = "/two-replicas";
            // Freshly started replicas answer their first requests slowly: leave room for all creations.
            Instant firstSendAt = Moments.now().plusSeconds(15);
            IntStream.range(0, MEETINGS)
                    .parallel()
                    .forEach(i -> create(
                            i % 2 == 0 ? a : b,
                            meeting()
                                    .startsAt(firstSendAt.plus(Duration.ofMillis(1800 + 2L * i)))
                                    .remindBefore(REMIND_BEFORE)
                                    .webhookUrl(receiver.url(path))));

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> receiver.deliveryCounts().size() >= due());
            // A second delivery of the same reminder would be racing the first: once reminders created after every
            // first delivery have come through both replicas, any such second delivery would have come too.
            Instant sentinelsAt = Moments.now().plusSeconds(1);
            create(
                    a,
                    meeting()
                            .startsAt(sentinelsAt.plusSeconds(1))
                            .remindBefore("PT1S")
                            .webhookUrl(receiver.url("/a")));
            create(
                    b,
                    meeting()
                            .startsAt(sentinelsAt.plusSeconds(1))
                            .remindBefore("PT1S")
                            .webhookUrl(receiver.url("/b")));
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            receiver.on("/a").size() == 1 && receiver.on("/b").size() == 1);

            List<Received> received = receiver.on(path);
            List<Long> lateness = received.stream()
                    .map(r -> Duration.between(r.sendAt(), r.at()).toMillis())
                    .sorted()
                    .toList();
            System.out.printf(
                    "Two replicas: %d reminders due, %d received, %d duplicates, lateness p50 %d ms, max %d ms%n",
                    due(),
                    received.size(),
                    received.size() - due(),
                    lateness.get(lateness.size() / 2),
                    lateness.get(lateness.size() - 1));
            assertThat(received)
                    .extracting(Received::deliveryId)
                    .doesNotHaveDuplicates()
                    .hasSize(due());
        }
    }

    private static int due() {
        return MEETINGS * REMIND_BEFORE.length;
    }

    private static void create(Replica replica, MeetingBody body) {
        given().baseUri("http://127.0.0.1")
                .port(replica.port())
                .contentType(ContentType.JSON)
                .body(body.toMap())
                .post("/meetings")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
    }
}
