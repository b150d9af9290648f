package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** A replica warms its delivery path up before it reports ready, and the warm-up leaves nothing behind. */
@QuarkusTest
@TestProfile(DeliveryWarmUpTest.WarmUpOn.class)
class DeliveryWarmUpTest {

    /** More than one round (batch-size 100), few enough to be quick. */
    static final int SENDS = 150;

    private static final String CHECK = "checks.find { it.name == 'Reminder timers (Redis)' }";

    public static class WarmUpOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("reminders.delivery.warm-up-sends", Integer.toString(SENDS));
        }
    }

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Inject
    DeliveryWarmUp warmUp;

    @Inject
    RedissonClient redis;

    @ConfigProperty(name = "reminders.redis.key-prefix")
    String prefix;

    @Test
    void becomesReadyOnceEverySendOfTheWarmUpWasVerifiedByItsOwnReceiver() {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> given().get("/q/health/ready").statusCode() == 200);

        given().get("/q/health/ready")
                .then()
                .body(CHECK + ".data.warmUp", equalTo("done"))
                .body(CHECK + ".data.warmUpVerified", equalTo(SENDS));
    }

    @Test
    void isUnreadyWhileWarmingUpAndChangesNoReminderKeyOrMetric() throws Exception {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> given().get("/q/health/ready").statusCode() == 200);
        Api.create(meeting()
                .startsAt(Instant.now().plus(Duration.ofHours(1)))
                .remindBefore("PT10M")
                .webhookUrl(receiver.url("/real")));
        String rows = reminderRows();
        List<String> schedule = schedule();
        String metrics = deliveryMetrics();

        // The warm-up waits for this test to run it: readiness is seen while it has not ended.
        List<Runnable> held = new ArrayList<>();
        CompletableFuture<DeliveryWarmUp.Progress> run = warmUp.start(held::add);
        given().get("/q/health/ready")
                .then()
                .statusCode(503)
                .body(CHECK + ".status", equalTo("DOWN"))
                .body(CHECK + ".data.warmUp", equalTo("warming up"));
        held.forEach(Runnable::run);

        assertThat(run.get().verified()).isEqualTo(SENDS);
        given().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body(CHECK + ".data.warmUp", equalTo("done"))
                .body(CHECK + ".data.warmUpVerified", equalTo(SENDS));
        assertThat(receiver.all()).isEmpty();
        assertThat(reminderRows()).isEqualTo(rows);
        assertThat(schedule()).isEqualTo(schedule);
        assertThat(deliveryMetrics()).isEqualTo(metrics);
        assertThat(redis.getKeys().getKeysByPattern(prefix + "*warm-up*")).isEmpty();
    }

    private static String reminderRows() {
        return Database.queryString(
                Database.TEST_DATABASE,
                "select coalesce(string_agg(id || ' ' || status || ' ' || attempts || ' '"
                        + " || coalesce(last_error, '') || ' ' || sent_to::text, ', ' order by id), '') from reminder");
    }

    private List<String> schedule() {
        return redis.<String>getScoredSortedSet(prefix + "schedule", StringCodec.INSTANCE).entryRange(0, -1).stream()
                .map(entry -> entry.getValue() + " " + entry.getScore())
                .toList();
    }

    /** What counts deliveries and their attempts, as /q/metrics shows them. */
    private static String deliveryMetrics() {
        String all = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return Stream.of(all.split("\n"))
                .filter(line -> Stream.of(
                                "reminders_delivered",
                                "reminders_delivery_attempt",
                                "reminders_failed",
                                "reminders_lateness")
                        .anyMatch(line::startsWith))
                .collect(Collectors.joining("\n"));
    }
}
