package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Signatures;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@QuarkusTest
class ReminderDeliveryTest {

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void deliversASignedNotificationWithinASecondOfItsSendTime() {
        String path = "/on-time";
        Instant startsAt = startAfterCreatingOne().plusSeconds(1);
        String id = Api.create(meeting()
                        .title("Weekly sync")
                        .startsAt(startsAt)
                        .remindBefore("PT1S")
                        .timeZone("Asia/Shanghai")
                        .attendees("a@example.com")
                        .webhookUrl(receiver.url(path)))
                .getString("id");
        Instant sendAt = startsAt.minusSeconds(1);
        LeadTime.requireBefore(sendAt);

        await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(3)))
                .until(() -> receiver.on(path).size() == 1);

        Received notification = receiver.on(path).get(0);
        assertThat(notification.at()).isAfterOrEqualTo(sendAt).isBefore(sendAt.plusSeconds(1));
        String deliveryId = id + ":" + sendAt.toEpochMilli();
        JsonNode body = notification.json();
        assertThat(body.path("deliveryId").asText()).isEqualTo(deliveryId);
        assertThat(body.path("meetingId").asText()).isEqualTo(id);
        assertThat(body.path("title").asText()).isEqualTo("Weekly sync");
        assertThat(Instant.parse(body.path("startsAt").asText())).isEqualTo(startsAt);
        assertThat(Instant.parse(body.path("sendAt").asText())).isEqualTo(sendAt);
        assertThat(body.path("remindBefore").asText()).isEqualTo("PT1S");
        assertThat(body.path("timeZone").asText()).isEqualTo("Asia/Shanghai");
        assertThat(body.path("attendees").get(0).asText()).isEqualTo("a@example.com");
        assertThat(notification.header("Content-Type")).startsWith("application/json");
        assertThat(notification.header("Idempotency-Key")).isEqualTo(deliveryId);
        assertThat(notification.header("webhook-id")).isEqualTo(deliveryId);
        // The meeting names its own webhookUrl: its owner's secret signs it, as the receiver's library checks.
        assertThat(Signatures.failure(Signatures.secretOf(Tokens.DEFAULT_CALLER), notification))
                .isEmpty();

        Map<String, Object> reminder = Api.onlyReminder(id);
        assertThat(reminder).containsEntry("status", "DELIVERED").containsEntry("attempts", 1);
        assertThat(reminder.get("deliveredAt")).isNotNull();
    }

    @Test
    void deliversEachOfAMeetingsRemindersOnce() {
        String path = "/two-reminders";
        Instant startsAt = startAfterCreatingOne().plusSeconds(2);
        String id = Api.create(meeting()
                        .startsAt(startsAt)
                        .remindBefore("PT2S", "PT1S")
                        .webhookUrl(receiver.url(path)))
                .getString("id");
        LeadTime.requireBefore(startsAt.minusSeconds(2));
        String sentinel = sentinelAfter(startsAt.plusSeconds(1));

        await().atMost(LeadTime.until(startsAt, Duration.ofSeconds(5)))
                .until(() -> receiver.on(sentinel).size() == 1);

        assertThat(receiver.on(path))
                .extracting(Received::deliveryId)
                .containsExactlyInAnyOrder(
                        Api.deliveryId(id, startsAt.minusSeconds(2)), Api.deliveryId(id, startsAt.minusSeconds(1)));
        assertThat(receiver.on(path)).allSatisfy(received -> assertThat(received.at())
                .isBetween(received.sendAt(), received.sendAt().plusSeconds(1)));
        assertThat(Api.reminders(id)).extracting(r -> r.get("status")).containsOnly("DELIVERED");
    }

    @Test
    void sendsAReminderWhoseTimeHasPassedAtOnceWhileTheMeetingHasNotStarted() {
        String path = "/already-due";
        Instant startsAt = Moments.now().plus(Duration.ofMinutes(30));
        Instant created = Moments.now();

        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1H").webhookUrl(receiver.url(path)))
                .getString("id");

        await().atMost(Duration.ofSeconds(3)).until(() -> receiver.on(path).size() == 1);
        assertThat(receiver.on(path).get(0).at()).isBefore(created.plusSeconds(1));
        assertThat(receiver.on(path).get(0).deliveryId())
                .isEqualTo(Api.deliveryId(id, startsAt.minus(Duration.ofHours(1))));
    }

    @Test
    void skipsTheRemindersOfAMeetingThatHasAlreadyStarted() {
        String path = "/started";
        String id = Api.create(meeting().remindBefore("PT5M").webhookUrl(receiver.url(path)))
                .getString("id");
        Instant startedAt = Moments.now().minus(Duration.ofMinutes(1));

        List<Map<String, Object>> reminders = Api.replace(
                        id, meeting().startsAt(startedAt).remindBefore("PT5M").webhookUrl(receiver.url(path)))
                .getList("reminders");

        assertThat(reminders)
                .filteredOn(r -> r.get("sendAt")
                        .equals(startedAt.minus(Duration.ofMinutes(5)).toString()))
                .extracting(r -> r.get("status"))
                .containsExactly("SKIPPED");
        assertThat(reminders).extracting(r -> r.get("status")).containsExactlyInAnyOrder("SKIPPED", "CANCELLED");
        String sentinel = sentinelAfter(Moments.now().plusMillis(500));
        await().atMost(Duration.ofSeconds(5)).until(() -> receiver.on(sentinel).size() == 1);
        assertThat(receiver.on(path)).isEmpty();
    }

    /**
     * A start that creating one meeting cannot outrun, sized by timing creates here and now: the first requests of a
     * freshly started replica (the packaged jar of ReminderDeliveryIT) took over 3 s on a loaded machine.
     */
    private Instant startAfterCreatingOne() {
        return LeadTime.fromNow(LeadTime.toCreate(1, 2, () -> IntStream.range(0, 2)
                .forEach(i -> Api.create(meeting().webhookUrl(receiver.url("/probe"))))));
    }

    /**
     * A reminder due at the given moment on a path of its own: once it has arrived, anything that was due before it
     * and was going to be sent would have been sent too.
     */
    private String sentinelAfter(Instant sendAt) {
        String path = "/sentinel-" + UUID.randomUUID();
        Api.create(
                meeting().startsAt(sendAt.plusSeconds(1)).remindBefore("PT1S").webhookUrl(receiver.url(path)));
        return path;
    }
}
