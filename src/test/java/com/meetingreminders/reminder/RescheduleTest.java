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
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@QuarkusTest
class RescheduleTest {

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void reschedulingCancelsTheOldReminderAndSendsTheNewOne() {
        String path = "/moved";
        // The create and the replace both before the old send time: a lead sized to two creates here and now.
        Instant oldSendAt = LeadTime.fromNow(LeadTime.toCreate(2, receiver));
        Instant startsAt = oldSendAt.plusSeconds(1);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url(path)))
                .getString("id");
        Instant movedTo = startsAt.plusSeconds(2);

        Api.replace(id, meeting().startsAt(movedTo).remindBefore("PT1S").webhookUrl(receiver.url(path)));
        LeadTime.requireBefore(oldSendAt);

        String moved = Api.deliveryId(id, movedTo.minusSeconds(1));
        await().atMost(LeadTime.until(movedTo.minusSeconds(1), Duration.ofSeconds(8)))
                .until(() -> !receiver.on(path).isEmpty());
        assertThat(receiver.on(path)).extracting(Received::deliveryId).containsExactly(moved);
        // The delivery is recorded after the receiver's answer, so the receiver may see it before the database says so.
        await().atMost(Duration.ofSeconds(8)).untilAsserted(() -> assertThat(Api.reminders(id))
                .extracting(r -> r.get("status"))
                .containsExactly("CANCELLED", "DELIVERED"));
    }

    @Test
    void keepsAHundredCancelledRemindersThatNeverWentOutHoweverOftenAMeetingMoves() {
        String[] tenReminders =
                IntStream.rangeClosed(1, 10).mapToObj(m -> "PT" + m + "M").toArray(String[]::new);
        Instant startsAt = Moments.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MINUTES);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore(tenReminders))
                .getString("id");

        // Each move cancels the ten reminders of the last start and plans ten new ones.
        for (int move = 1; move <= 12; move++) {
            Api.replace(id, meeting().startsAt(startsAt.plusSeconds(move)).remindBefore(tenReminders));
            if (move == 1) {
                // As a retry leaves a reminder that a send had reached, then cancelled: kept, however old.
                Database.execute(
                        Database.TEST_DATABASE,
                        "update reminder set sent_to = '{webhook}' where meeting_id = '" + id + "' and send_at = '"
                                + startsAt.minus(Duration.ofMinutes(10)) + "'");
            }
        }

        // The latest hundred of the 120 cancelled send times are kept.
        List<Instant> cancelled = IntStream.range(0, 12)
                .boxed()
                .flatMap(start -> IntStream.rangeClosed(1, 10)
                        .mapToObj(m -> startsAt.plusSeconds(start).minus(Duration.ofMinutes(m))))
                .sorted(Comparator.reverseOrder())
                .toList();
        List<Map<String, Object>> reminders = Api.reminders(id);
        assertThat(reminders).filteredOn("status", "SCHEDULED").hasSize(10);
        List<Instant> kept = new ArrayList<>(cancelled.subList(0, 100));
        kept.add(startsAt.minus(Duration.ofMinutes(10)));
        assertThat(reminders)
                .filteredOn("status", "CANCELLED")
                .extracting(r -> Instant.parse(r.get("sendAt").toString()))
                .containsExactlyInAnyOrderElementsOf(kept);
    }

    @ParameterizedTest(name = "{0} ms before the send time")
    @ValueSource(longs = {90, 50, 20})
    void aRescheduleInTheLast100MillisecondsSendsNothingOfTheOldSchedule(long millisBefore) {
        String path = "/late-move-" + millisBefore;
        Instant startsAt = Moments.now().plusSeconds(3);
        Instant oldSendAt = startsAt.minusSeconds(1);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url(path)))
                .getString("id");
        Instant movedTo = startsAt.plusSeconds(1);

        Moments.waitUntil(oldSendAt.minusMillis(millisBefore));
        List<Map<String, Object>> reminders = Api.replace(
                        id, meeting().startsAt(movedTo).remindBefore("PT1S").webhookUrl(receiver.url(path)))
                .getList("reminders");
        Instant answeredAt = Instant.now();

        String moved = Api.deliveryId(id, movedTo.minusSeconds(1));
        await().atMost(Duration.ofSeconds(6)).until(() -> receiver.on(path).stream()
                .anyMatch(r -> r.deliveryId().equals(moved)));
        Object oldStatus = statusAt(reminders, oldSendAt);
        String old = Api.deliveryId(id, oldSendAt);
        if (answeredAt.isBefore(oldSendAt)) {
            assertThat(oldStatus).isEqualTo("CANCELLED");
        }
        if ("CANCELLED".equals(oldStatus)) {
            assertThat(receiver.on(path)).extracting(Received::deliveryId).containsExactly(moved);
        } else {
            // The reschedule landed after the send time and waited for the delivery under way: the old reminder was
            // sent once, before the change was answered.
            assertThat(oldStatus).isEqualTo("DELIVERED");
            assertThat(receiver.on(path)).extracting(Received::deliveryId).containsExactly(old, moved);
            assertThat(receiver.on(path).get(0).at()).isBefore(answeredAt);
        }
    }

    @ParameterizedTest(name = "{0} ms before the send time")
    @ValueSource(longs = {1000, 50})
    void deletingAMeetingSendsNoneOfItsUnsentReminders(long millisBefore) {
        String path = "/deleted-" + millisBefore;
        Instant startsAt = Moments.now().plusSeconds(3);
        Instant sendAt = startsAt.minusSeconds(1);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url(path)))
                .getString("id");
        String sentinel = "/sentinel-" + UUID.randomUUID();
        Api.create(
                meeting().startsAt(sendAt.plusSeconds(2)).remindBefore("PT1S").webhookUrl(receiver.url(sentinel)));

        Moments.waitUntil(sendAt.minusMillis(millisBefore));
        given().delete("/meetings/" + id).then().statusCode(204);
        Instant answeredAt = Instant.now();

        await().atMost(Duration.ofSeconds(6)).until(() -> receiver.on(sentinel).size() == 1);
        if (answeredAt.isBefore(sendAt)) {
            assertThat(receiver.on(path)).isEmpty();
        } else {
            assertThat(receiver.on(path)).allSatisfy(r -> assertThat(r.at()).isBefore(answeredAt));
        }
    }

    private static Object statusAt(List<Map<String, Object>> reminders, Instant sendAt) {
        return reminders.stream()
                .filter(r -> r.get("sendAt").equals(sendAt.toString()))
                .map(r -> r.get("status"))
                .findFirst()
                .orElseThrow();
    }
}
