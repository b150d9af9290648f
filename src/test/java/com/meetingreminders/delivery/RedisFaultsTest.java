package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.RedisAdmin;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/** Redis that does not help: no expiration events, or every key of ours gone. Reminders still arrive on time. */
@QuarkusTest
class RedisFaultsTest {

    @Inject
    RedissonClient redis;

    @Inject
    RemindersConfig config;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void deliversWithinASecondWhenRedisPublishesNoExpiredEvents() {
        String flags = RedisAdmin.notifyKeyspaceEvents(redis);
        RedisAdmin.setNotifyKeyspaceEvents(redis, "");
        try {
            given().get("/q/health/ready")
                    .then()
                    .statusCode(200)
                    .body("checks.find { it.name == 'Reminder timers (Redis)' }.data.expiredEvents", equalTo("off"));
            String path = "/no-events";
            Instant sendAt = LeadTime.fromNow(LeadTime.toCreate(1, receiver));
            Api.create(meeting()
                    .startsAt(sendAt.plusSeconds(1))
                    .remindBefore("PT1S")
                    .webhookUrl(receiver.url(path)));
            LeadTime.requireBefore(sendAt);

            await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(5)))
                    .until(() -> receiver.on(path).size() == 1);
            Received received = receiver.on(path).get(0);
            assertThat(received.at())
                    .isBetween(received.sendAt(), received.sendAt().plusSeconds(1));
        } finally {
            RedisAdmin.setNotifyKeyspaceEvents(redis, flags);
        }
    }

    @Test
    void deliversPendingRemindersAfterRedisLosesEveryKey() {
        String path = "/after-flush";
        // The first reminder is due a second before its meeting starts: all eleven exist before then.
        Instant startsAt = LeadTime.fromNow(LeadTime.toCreate(11, receiver)).plusSeconds(1);
        List<String> ids = IntStream.range(0, 10)
                .mapToObj(i -> Api.create(meeting()
                                .startsAt(startsAt.plusMillis(100 * i))
                                .remindBefore("PT1S")
                                .webhookUrl(receiver.url(path)))
                        .getString("id"))
                .toList();
        String sentinel = "/sentinel-" + UUID.randomUUID();
        Api.create(
                meeting().startsAt(startsAt.plusSeconds(3)).remindBefore("PT1S").webhookUrl(receiver.url(sentinel)));

        // Every key of this service, and nothing else: the machine's Redis may serve other checkouts and programs.
        redis.getKeys().deleteByPattern(config.redis().keyPrefix() + "*");
        LeadTime.requireBefore(startsAt.minusSeconds(1));

        await().atMost(LeadTime.until(startsAt, Duration.ofSeconds(10)))
                .until(() -> receiver.on(sentinel).size() == 1);
        assertThat(receiver.on(path))
                .extracting(r -> r.deliveryId().substring(0, 36))
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(receiver.on(path)).allSatisfy(received -> assertThat(received.at())
                .isBetween(received.sendAt(), received.sendAt().plusSeconds(1)));
    }
}
