package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Figures;
import com.meetingreminders.support.HostileAnswer;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Slow receivers hold no delivery worker: a healthy reminder due with slow ones that waited for one of them would wait
 * for its timeout. The timeout here is far longer than the healthy ones take to drain on a loaded machine, so that
 * waiting for it and a slow machine cannot be taken for each other; one attempt each, so that the hanging ones fail
 * within the test. The dripping ones answer 200 before their body: they are delivered, and their bodies cut off at the
 * timeout.
 */
@QuarkusTest
@TestProfile(SlowReceiverTest.LongTimeout.class)
class SlowReceiverTest {

    public static class LongTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "reminders.webhook.timeout", "20s",
                    "reminders.delivery.max-attempts", "1",
                    // Longer than a round that waits for the timeout: no round is taken over while it sends.
                    "reminders.claim.lease", "60s",
                    "reminders.redis.key-prefix", "reminders-slow-" + UUID.randomUUID() + ":");
        }
    }

    private static final int HEALTHY = 1_000;
    private static final int SLOW = 50;
    private static final int BATCH = 1_000;
    private static final int WARM_UP = 300;

    @ConfigProperty(name = "reminders.webhook.timeout")
    Duration webhookTimeout;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    /** Another receiver: connections are pooled per receiver, and the slow one may fill its own pool only. */
    @RegisterExtension
    final WebhookReceiver slow = WebhookReceiver.start();

    @Test
    void fiftyRemindersToReceiversThatHangOrDripDelayNoneOfAThousandDueWithThem() {
        slow.neverAnswer("/hangs");
        slow.answerHostile("/drips", HostileAnswer.drip());
        warmUp();
        Duration lead = LeadTime.toCreate(
                HEALTHY + SLOW,
                100,
                () -> Api.createAll(IntStream.range(0, 100)
                        .mapToObj(i -> meeting().webhookUrl(receiver.url("/probe")))
                        .toList()));
        Instant sendAt = LeadTime.fromNow(lead);
        List<MeetingBody> bodies = new ArrayList<>();
        IntStream.range(0, HEALTHY).forEach(i -> bodies.add(dueAt(sendAt, receiver.url("/healthy"))));
        IntStream.range(0, SLOW).forEach(i -> bodies.add(dueAt(sendAt, slow.url(i % 2 == 0 ? "/hangs" : "/drips"))));
        // Mixed, so that slow sends share delivery rounds with healthy ones.
        Collections.shuffle(bodies, new Random(10));
        for (int from = 0; from < bodies.size(); from += BATCH) {
            Api.createAll(bodies.subList(from, Math.min(bodies.size(), from + BATCH)));
        }
        LeadTime.requireBefore(sendAt);

        await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(30)))
                .until(() -> receiver.on("/healthy").size() >= HEALTHY);
        List<Long> lateness = receiver.on("/healthy").stream()
                .map(received ->
                        Duration.between(received.sendAt(), received.at()).toMillis())
                .sorted()
                .toList();
        long p99 = lateness.get((int) Math.ceil(lateness.size() * 0.99) - 1);
        System.out.printf(
                "%d reminders due with %d to receivers that hang or drip: p50 %d ms, p99 %d ms, max %d ms%n",
                HEALTHY, SLOW, lateness.get(lateness.size() / 2), p99, lateness.get(lateness.size() - 1));
        assertThat(lateness.get(0)).isNotNegative();
        // A healthy reminder that waited for a slow one would wait for its timeout: the line between held up and not.
        // How far below it the burst drains is the machine's speed, which the bench measures, not this test.
        assertThat(lateness.get(lateness.size() - 1)).isLessThan(webhookTimeout.toMillis());

        // A round writes its outcomes once its last send has ended: the healthy ones that shared a round with a
        // slow one are DELIVERED when that one's timeout has passed.
        await().atMost(webhookTimeout.plusSeconds(30))
                .until(() -> count(receiver.url("/healthy"), "DELIVERED", 1) == HEALTHY);
        await().atMost(webhookTimeout.plusSeconds(30))
                .until(() ->
                        count(slow.url("/hangs"), "FAILED", 1) + count(slow.url("/drips"), "DELIVERED", 1) == SLOW);
        Figures figures = Figures.of(HEALTHY, receiver.on("/healthy")).print("Healthy beside slow receivers");
        assertThat(figures.delivered()).isEqualTo(HEALTHY);
        assertThat(figures.duplicates()).isZero();
        assertThat(slow.on("/hangs").size() + slow.on("/drips").size()).isEqualTo(SLOW);
    }

    /**
     * Delivers a first, smaller burst to the healthy receiver and waits for it. This test is about whether slow
     * receivers hold up healthy ones, not about how long a freshly started JVM takes to load the delivery path: run
     * alone, its burst would otherwise be the application's very first deliveries, and the hundreds of classes they
     * load on a shared machine cost more than the whole target.
     */
    private void warmUp() {
        // Due as soon as they are stored: their lateness is not measured, so they need no lead time.
        Instant now = Instant.now();
        Api.createAll(IntStream.range(0, WARM_UP)
                .mapToObj(i -> dueAt(now, receiver.url("/warm-up")))
                .toList());
        await().atMost(Duration.ofSeconds(60)).until(() -> count(receiver.url("/warm-up"), "DELIVERED", 1) == WARM_UP);
    }

    private static MeetingBody dueAt(Instant sendAt, String url) {
        // The meeting starts a minute after its reminder, so a late attempt is still sent rather than skipped.
        return meeting().startsAt(sendAt.plusSeconds(60)).remindBefore("PT60S").webhookUrl(url);
    }

    /** Reminders to this URL in this state after this many attempts, as the database records them. */
    private static long count(String url, String status, int attempts) {
        return Database.queryLong(
                Database.TEST_DATABASE,
                "select count(*) from reminder r join meeting m on m.id = r.meeting_id where m.webhook_url = '" + url
                        + "' and r.status = '" + status + "' and r.attempts = " + attempts);
    }
}
