package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The event path on its own: sweeps take nothing, so only expired trigger keys and the claim guard deliver. */
@QuarkusTest
@TestProfile(ExpiredEventPathTest.SweepsTakeNothing.class)
class ExpiredEventPathTest {

    public static class SweepsTakeNothing implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "reminders.sweeper.batch-size",
                    "0",
                    "reminders.redis.key-prefix",
                    "reminders-events-" + UUID.randomUUID() + ":");
        }
    }

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void deliversOnTheExpiredEventOfATriggerKeyAlone() {
        String path = "/by-event";
        // Two seconds before the start is the first send time: the trigger key is armed within the horizon.
        Instant startsAt = LeadTime.fromNow(LeadTime.toCreate(1, receiver)).plusSeconds(2);
        String id = Api.create(meeting()
                        .startsAt(startsAt)
                        .remindBefore("PT1S", "PT2S")
                        .webhookUrl(receiver.url(path)))
                .getString("id");

        LeadTime.requireBefore(startsAt.minusSeconds(2));
        // With the sweeps taking nothing, only expirations send reminders: the bound is room for a loaded machine
        // (Redis expires a key within about 100 ms), not a measure of speed, which the bench takes.
        await().atMost(LeadTime.until(startsAt, Duration.ofSeconds(6)))
                .until(() -> receiver.on(path).size() == 2);
        assertThat(receiver.on(path)).allSatisfy(received -> assertThat(received.at())
                .isBetween(received.sendAt(), received.sendAt().plusSeconds(5)));
        assertThat(receiver.on(path))
                .extracting(Received::deliveryId)
                .containsExactlyInAnyOrder(
                        Api.deliveryId(id, startsAt.minusSeconds(1)), Api.deliveryId(id, startsAt.minusSeconds(2)));
    }
}
