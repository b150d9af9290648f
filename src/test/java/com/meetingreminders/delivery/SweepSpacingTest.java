package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sweep path on its own (no trigger keys, so no expiration events), with a spacing long enough to see: reminders
 * falling due one after another soon after a sweep took one go out together, in one round, instead of one round each.
 */
@QuarkusTest
@TestProfile(SweepSpacingTest.LongSpacingNoEvents.class)
class SweepSpacingTest {

    private static final Duration SPACING = Duration.ofSeconds(20);

    public static class LongSpacingNoEvents implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "reminders.sweeper.spacing",
                    SPACING.toMillis() + "ms",
                    // No reminder comes within a zero horizon before it is due: none gets a trigger key.
                    "reminders.trigger.horizon",
                    "0s",
                    "reminders.redis.key-prefix",
                    "reminders-spacing-" + UUID.randomUUID() + ":");
        }
    }

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void remindersFallingDueWithinTheSpacingOfASweepThatTookOneGoOutInOneRound() {
        String path = "/stream";
        Instant startsAt = LeadTime.fromNow(LeadTime.toCreate(1, receiver)).plusSeconds(12);
        // The first falls due alone; the other three 8 to 10 s after it, well within the spacing of the sweep that
        // took the first: unless that sweep came 8 s late, which leaves a loaded machine room.
        String id = Api.create(meeting()
                        .startsAt(startsAt)
                        .remindBefore("PT12S", "PT4S", "PT3S", "PT2S")
                        .webhookUrl(receiver.url(path)))
                .getString("id");

        LeadTime.requireBefore(startsAt.minusSeconds(12));
        await().atMost(LeadTime.until(startsAt, SPACING.multipliedBy(3)))
                .until(() -> receiver.on(path).size() == 4);

        assertThat(receiver.on(path))
                .allSatisfy(received -> assertThat(received.at()).isAfterOrEqualTo(received.sendAt()));
        Map<String, String> deliveredAtBySendAt = new TreeMap<>();
        for (Map<String, Object> reminder : Api.reminders(id)) {
            deliveredAtBySendAt.put((String) reminder.get("sendAt"), (String) reminder.get("deliveredAt"));
        }
        List<String> deliveredAt = List.copyOf(deliveredAtBySendAt.values());
        assertThat(deliveredAt).doesNotContainNull().hasSize(4);
        // One round records one delivery time for all its reminders.
        assertThat(deliveredAt.subList(1, 4)).containsOnly(deliveredAt.get(1));
        assertThat(deliveredAt.get(0)).isNotEqualTo(deliveredAt.get(1));
    }
}
