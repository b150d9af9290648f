package com.meetingreminders.admin;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Moments;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pause across two packaged replicas running at once: paused through one, with meetings created through the
 * other, neither sends anything and nothing is lost; resumed through the second, each reminder that fell due is sent
 * once, or SKIPPED if its meeting had started and it was later than the late cut-off.
 */
class PauseAcrossReplicasIT {

    /** Short, so that a meeting started longer ago than the cut-off takes seconds of the test, not a minute. */
    private static final Duration LATE_CUTOFF = Duration.ofSeconds(2);

    private static final int EACH = 4;
    private static final String OPERATOR = "Bearer " + Tokens.operator("olga");
    private static final String READINESS_PAUSED = "checks.find { it.name == 'Reminder timers (Redis)' }.data.paused";

    private static final OwnDatabase DATABASE = new OwnDatabase();
    private static final OwnKeyPrefix KEYS = new OwnKeyPrefix();
    private static final WebhookReceiver RECEIVER = WebhookReceiver.start();
    private static CompletableFuture<Replica> startingA;
    private static CompletableFuture<Replica> startingB;
    private static Replica a;
    private static Replica b;

    /** One meeting with one reminder, and the receiver path that is its own. */
    private record Planned(String id, String path, Instant sendAt, Instant startsAt) {

        String deliveryId() {
            return id + ":" + sendAt.toEpochMilli();
        }
    }

    @BeforeAll
    static void startTwoReplicas() {
        DATABASE.create();
        Map<String, String> settings = Map.of(
                "quarkus.datasource.jdbc.url", DATABASE.jdbcUrl(),
                "reminders.redis.key-prefix", KEYS.prefix(),
                "reminders.delivery.late-cutoff", LATE_CUTOFF.toString(),
                "reminders.admin.pause-refresh", "200ms",
                "reminders.admin.heartbeat", "1s");
        startingA = CompletableFuture.supplyAsync(() -> Replica.start("pause-a", settings));
        startingB = CompletableFuture.supplyAsync(() -> Replica.start("pause-b", settings));
        a = startingA.join();
        b = startingB.join();
    }

    @AfterAll
    static void stopEverything() {
        // Either start may have failed; the other replica is stopped all the same.
        Stream.of(startingA, startingB)
                .map(starting -> starting == null
                        ? null
                        : starting.handle((replica, failed) -> replica).join())
                .filter(replica -> replica != null)
                .forEach(Replica::close);
        RECEIVER.close();
        KEYS.deleteKeys();
        DATABASE.drop();
    }

    @Test
    void pausedThroughOneReplicaNeitherSendsAndOnResumeEachIsSentOnceOrSkipped() {
        String since = operator(a)
                .post("/admin/delivery/pause")
                .then()
                .statusCode(200)
                .body("paused", equalTo(true))
                .extract()
                .path("since");
        operator(b).get("/admin/delivery").then().statusCode(200).body("since", equalTo(since));
        // Each replica reads the switch on its own: both must have, not only the one the operator called.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (Replica replica : List.of(a, b)) {
                assertThat(meter(replica, "reminders_delivery_paused")).isEqualTo(1);
                on(replica).get("/q/health/ready").then().statusCode(200).body(READINESS_PAUSED, equalTo(true));
            }
        });

        // Due a second after each is created; sent late but before their meetings start...
        List<Planned> toSend =
                IntStream.range(0, EACH).mapToObj(i -> plan("/sent-" + i, 120)).toList();
        // ...or SKIPPED: by the resume their meetings started longer ago than the cut-off.
        List<Planned> toSkip = IntStream.range(0, EACH)
                .mapToObj(i -> plan("/skipped-" + i, 1 + LATE_CUTOFF.toSeconds()))
                .toList();
        List<Planned> all = Stream.concat(toSend.stream(), toSkip.stream()).toList();

        // Each replica sweeps the one schedule every 100 ms: once both count every reminder due and left there, both
        // have seen all of them due, while paused, and taken none.
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(List.of(held(a), held(b))).containsOnly((double) all.size()));
        Moments.waitUntil(
                latest(toSkip.stream().map(Planned::startsAt)).plus(LATE_CUTOFF).plusSeconds(1));
        assertThat(List.of(held(a), held(b))).containsOnly((double) all.size());
        assertThat(RECEIVER.all()).isEmpty();
        for (Planned planned : all) {
            assertThat(reminder(planned)).containsEntry("status", "SCHEDULED").containsEntry("attempts", 0);
        }

        operator(b).post("/admin/delivery/resume").then().statusCode(200).body("paused", equalTo(false));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            toSend.forEach(planned -> assertThat(reminder(planned)).containsEntry("status", "DELIVERED"));
            toSkip.forEach(planned -> assertThat(reminder(planned)).containsEntry("status", "SKIPPED"));
        });
        // A DELIVERED row is recorded after the receiver answered, and no round sends a reminder no longer SCHEDULED:
        // what the receiver has now is all it will get.
        for (Planned planned : toSend) {
            assertThat(RECEIVER.on(planned.path()))
                    .singleElement()
                    .extracting(WebhookReceiver.Received::deliveryId)
                    .isEqualTo(planned.deliveryId());
        }
        assertThat(RECEIVER.all()).hasSize(toSend.size());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(meter(a, "reminders_skipped_total") + meter(b, "reminders_skipped_total"))
                    .isEqualTo(toSkip.size());
            for (Replica replica : List.of(a, b)) {
                assertThat(meter(replica, "reminders_delivery_paused")).isZero();
                assertThat(held(replica)).isZero();
                on(replica).get("/q/health/ready").then().statusCode(200).body(READINESS_PAUSED, equalTo(false));
            }
        });
    }

    @Test
    void eachReplicaIsListedReadyByEitherOfThem() {
        for (Replica asked : List.of(a, b)) {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(operator(asked)
                            .get("/admin/delivery")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .<Map<String, Object>>getList("replicas"))
                    .filteredOn(seen -> Boolean.TRUE.equals(seen.get("ready")))
                    .extracting(seen -> seen.get("id").toString().split("@")[0])
                    .contains(Long.toString(a.pid()), Long.toString(b.pid())));
        }
    }

    /** A meeting created through B, starting {@code startsIn} seconds from now, reminded a second from now. */
    private static Planned plan(String path, long startsIn) {
        Instant startsAt = Moments.now().plusSeconds(startsIn);
        Duration before = Duration.ofSeconds(startsIn - 1);
        String id = b.create(
                meeting().startsAt(startsAt).remindBefore(before.toString()).webhookUrl(RECEIVER.url(path)));
        return new Planned(id, path, startsAt.minus(before), startsAt);
    }

    /** The reminder's row as its owner reads it, through A. */
    private static Map<String, Object> reminder(Planned planned) {
        List<Map<String, Object>> reminders = on(a).get("/meetings/" + planned.id() + "/reminders")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("$");
        assertThat(reminders).singleElement().satisfies(row -> assertThat(Instant.parse((String) row.get("sendAt")))
                .isEqualTo(planned.sendAt()));
        return reminders.get(0);
    }

    private static double held(Replica replica) {
        return meter(replica, "reminders_delivery_held");
    }

    /** A meter of the replica's /q/metrics, summed over its series (tags). */
    private static double meter(Replica replica, String name) {
        String metrics =
                on(replica).get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher series =
                Pattern.compile("(?m)^" + name + "(?:\\{[^}]*})? (\\S+)$").matcher(metrics);
        double sum = 0;
        boolean found = false;
        while (series.find()) {
            sum += Double.parseDouble(series.group(1));
            found = true;
        }
        assertThat(found).as("%s on %s", name, replica.url("/q/metrics")).isTrue();
        return sum;
    }

    private static Instant latest(Stream<Instant> instants) {
        return instants.max(Instant::compareTo).orElseThrow();
    }

    private static RequestSpecification on(Replica replica) {
        return given().baseUri("http://127.0.0.1").port(replica.port());
    }

    private static RequestSpecification operator(Replica replica) {
        return on(replica).header("Authorization", OPERATOR);
    }
}
