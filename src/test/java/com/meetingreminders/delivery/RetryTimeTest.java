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
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** The database decides when a failed reminder may be tried again, whatever Redis says. */
@QuarkusTest
@TestProfile(RetryTimeTest.LongBackoff.class)
class RetryTimeTest {

    private static final Duration BACKOFF = Duration.ofSeconds(3);

    public static class LongBackoff implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "reminders.delivery.backoff", BACKOFF.toSeconds() + "s",
                    "reminders.delivery.max-backoff", "1m",
                    "reminders.redis.key-prefix", "reminders-retry-" + UUID.randomUUID() + ":");
        }
    }

    @Inject
    RedissonClient redis;

    @ConfigProperty(name = "reminders.redis.key-prefix")
    String prefix;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void aReminderTakenBeforeItsNextAttemptWaitsForIt() {
        String path = "/retry-time";
        receiver.answerInTurn(path, 503);
        Instant startsAt = LeadTime.fromNow(LeadTime.toCreate(1, receiver)).plusSeconds(1);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url(path)))
                .getString("id");
        await().atMost(LeadTime.until(startsAt, Duration.ofSeconds(5)))
                .until(() -> Integer.valueOf(1).equals(Api.onlyReminder(id).get("attempts")));
        Instant nextAttemptAt = Instant.parse((String) Api.onlyReminder(id).get("nextAttemptAt"));

        // The round tells Redis of the failure after its commit: once it has, the entry is due at the next attempt
        // (backoff 3 s) rather than at the end of its lease (10 s), and nothing overwrites what this test sets next.
        RScoredSortedSet<String> schedule = redis.getScoredSortedSet(prefix + "schedule", StringCodec.INSTANCE);
        String entry = Api.deliveryId(id, startsAt.minusSeconds(1));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> schedule.getScore(entry) != null
                        && schedule.getScore(entry)
                                < nextAttemptAt.plusSeconds(5).toEpochMilli());
        // What a lease that ran out, or a re-arm after Redis lost its keys, would do: the entry is due at once.
        schedule.add(0, entry);

        await().atMost(BACKOFF.plusSeconds(5))
                .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));
        List<Received> attempts = receiver.on(path);
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(1).at()).isAfterOrEqualTo(nextAttemptAt);
        assertThat(Duration.between(attempts.get(0).at(), attempts.get(1).at())).isGreaterThanOrEqualTo(BACKOFF);
    }
}
