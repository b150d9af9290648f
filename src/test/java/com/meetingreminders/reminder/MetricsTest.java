package com.meetingreminders.reminder;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs in an application of its own (a profile of its own makes Quarkus start one, with the test database cleaned):
 * no reminder of another test can be delivered between the two readings.
 */
@QuarkusTest
@TestProfile(MetricsTest.OwnApplication.class)
class MetricsTest {

    public static class OwnApplication implements QuarkusTestProfile {}

    @Inject
    ReminderMetrics metrics;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void countsWhatHappensToReminders() {
        // Measured before the counters are read: the probe's meetings count as scheduled too.
        Duration lead = LeadTime.toCreate(4, receiver);
        Map<String, Double> before = scrape();
        receiver.alwaysAnswer("/refuses", 500);
        Instant soon = LeadTime.fromNow(lead).plusSeconds(1);

        // Two delivered, one FAILED, one cancelled by a delete, one SKIPPED by a move into the past.
        String delivered = Api.create(
                        meeting().startsAt(soon).remindBefore("PT1S", "PT0S").webhookUrl(receiver.url("/ok")))
                .getString("id");
        String failing = Api.create(
                        meeting().startsAt(soon).remindBefore("PT1S").webhookUrl(receiver.url("/refuses")))
                .getString("id");
        String deleted = Api.create(meeting().remindBefore("PT5M")).getString("id");
        given().delete("/meetings/" + deleted).then().statusCode(204);
        String moved = Api.create(meeting().remindBefore("PT5M")).getString("id");
        Api.replace(moved, meeting().startsAt(Moments.now().minusSeconds(60)).remindBefore("PT5M"));

        await().atMost(LeadTime.until(soon, Duration.ofSeconds(7)))
                .until(() -> Api.reminders(delivered).stream().allMatch(r -> "DELIVERED".equals(r.get("status")))
                        && "FAILED".equals(Api.onlyReminder(failing).get("status")));

        // A round counts its deliveries once it has committed them, so the counts may trail the statuses by a moment.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Map<String, Double> after = scrape();
            assertThat(increase(before, after, "reminders_scheduled_total")).isEqualTo(5);
            assertThat(increase(before, after, "reminders_cancelled_total")).isEqualTo(2);
            assertThat(increase(before, after, "reminders_skipped_total")).isEqualTo(1);
            assertThat(increase(before, after, "reminders_failed_total")).isEqualTo(1);
            assertThat(increase(before, after, "reminders_delivered_total{path=\"event\"}")
                            + increase(before, after, "reminders_delivered_total{path=\"sweep\"}"))
                    .isEqualTo(2);
            assertThat(increase(before, after, "reminders_lateness_seconds_count"))
                    .isEqualTo(2);
            assertThat(increase(
                            before,
                            after,
                            "reminders_delivery_attempt_seconds_count{channel=\"webhook\",outcome=\"success\"}"))
                    .isEqualTo(2);
            assertThat(increase(
                            before,
                            after,
                            "reminders_delivery_attempt_seconds_count{channel=\"webhook\",outcome=\"failure\"}"))
                    .isEqualTo(3);
            assertThat(after)
                    .containsKeys(
                            "reminders_claims_lost_total",
                            "reminders_pending",
                            "reminders_lateness_seconds{quantile=\"0.99\"}");
            assertThat(after.keySet()).anyMatch(name -> name.startsWith("reminders_lateness_seconds_bucket{le="));
        });
    }

    @Test
    void pendingIsTheCountOfScheduledRemindersWhenLastCounted() {
        for (int i = 0; i < 3; i++) {
            Api.create(meeting().remindBefore("PT10M", "PT5M"));
        }
        // The count runs every 10 s; run it now. Other meetings may fall due meanwhile, never be created.
        long before = scheduledInDatabase();
        metrics.countPending();
        long after = scheduledInDatabase();

        assertThat(after).isGreaterThanOrEqualTo(6);
        assertThat(scrape().get("reminders_pending")).isBetween((double) after, (double) before);
    }

    /** Read with plain SQL, not through the entity query the count itself runs. */
    private static long scheduledInDatabase() {
        return Database.queryLong(Database.TEST_DATABASE, "select count(*) from reminder where status = 'SCHEDULED'");
    }

    private static double increase(Map<String, Double> before, Map<String, Double> after, String series) {
        assertThat(after).containsKey(series);
        return after.get(series) - before.getOrDefault(series, 0.0);
    }

    /** The Prometheus text at /q/metrics: each series (name and labels) with its value. */
    private static Map<String, Double> scrape() {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Map<String, Double> series = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("reminders_")) {
                int space = line.lastIndexOf(' ');
                series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return series;
    }
}
