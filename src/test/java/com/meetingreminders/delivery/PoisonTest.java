package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.CapturedLogs;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** Keys and schedule entries under our prefix that name no reminder: logged once, ignored, nothing stops. */
@QuarkusTest
class PoisonTest {

    @Inject
    RedissonClient redis;

    @ConfigProperty(name = "reminders.redis.key-prefix")
    String prefix;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void logsOnceAndIgnoresWhatNamesNoReminderAndGoesOnDelivering() {
        try (CapturedLogs logs = CapturedLogs.of("com.meetingreminders")) {
            String malformedTrigger = prefix + "trigger:not-a-reminder";
            String foreignKey = prefix + "something-else";
            expireSoon(malformedTrigger);
            expireSoon(foreignKey);
            expireSoon(prefix + "trigger:" + UUID.randomUUID() + ":" + System.currentTimeMillis());
            RScoredSortedSet<String> schedule = redis.getScoredSortedSet(prefix + "schedule", StringCodec.INSTANCE);
            String malformedMember = "not-a-reminder-" + UUID.randomUUID();
            String memberOfNoReminder = UUID.randomUUID() + ":" + System.currentTimeMillis();
            schedule.add(0, malformedMember);
            schedule.add(0, memberOfNoReminder);

            String path = "/after-poison";
            Instant startsAt = Moments.now().plusSeconds(2);
            Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url(path)));

            await().atMost(Duration.ofSeconds(6)).until(() -> receiver.on(path).size() == 1);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> !schedule.contains(malformedMember) && !schedule.contains(memberOfNoReminder));
            // Its expiration is heard on its own, with no round after it to wait for.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(logs.count(malformedTrigger))
                    .isEqualTo(1));
            assertThat(logs.count(malformedMember)).isEqualTo(1);
            assertThat(logs.count(memberOfNoReminder)).isEqualTo(1);
            assertThat(logs.count(foreignKey)).isZero();
        }
    }

    private void expireSoon(String key) {
        redis.getBucket(key, StringCodec.INSTANCE).set("", Duration.ofMillis(50));
    }
}
