package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reminders due among 20,000 pending arrive, once each, within seconds, and none of the pending ones early. The bound
 * catches a sweep or a round that has become an order of magnitude slower (200 due over a second, p99 about 0.35 s
 * here); the figure itself is the bench's to measure (its precision rows, with up to a million pending), not this
 * test's: a bound of a second would hold on a quiet machine only.
 */
@QuarkusTest
class LatenessAtScaleTest {

    private static final int FAR_MEETINGS = 2_000;
    private static final String[] TEN_REMINDERS = {
        "PT1M", "PT2M", "PT3M", "PT4M", "PT5M", "PT10M", "PT15M", "PT30M", "PT1H", "PT2H"
    };
    private static final int DUE = 200;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void keepsP99LatenessWithinSecondsWhile20000RemindersArePending() {
        // The parallel streams' pool threads create meetings through RestAssured, whose JSON mapper must be made in
        // the Quarkus test's class loader, not in the pool threads' own.
        ClassLoader testLoader = Thread.currentThread().getContextClassLoader();
        Instant far = Moments.now().plus(Duration.ofDays(20));
        IntStream.range(0, FAR_MEETINGS)
                .parallel()
                .forEach(i -> create(
                        testLoader,
                        meeting()
                                .startsAt(far.plusSeconds(i))
                                .remindBefore(TEN_REMINDERS)
                                .webhookUrl(receiver.url("/far"))));

        String path = "/due";
        Instant firstSendAt = LeadTime.fromNow(LeadTime.toCreate(DUE, 20, () -> IntStream.range(0, 20)
                .parallel()
                .forEach(i -> create(
                        testLoader, meeting().webhookUrl(receiver.url("/far")).startsAt(far)))));
        IntStream.range(0, DUE)
                .parallel()
                .forEach(i -> create(
                        testLoader,
                        meeting()
                                .startsAt(firstSendAt.plusMillis(5L * i).plusSeconds(1))
                                .remindBefore("PT1S")
                                .webhookUrl(receiver.url(path))));

        LeadTime.requireBefore(firstSendAt);

        await().atMost(LeadTime.until(firstSendAt, Duration.ofSeconds(20)))
                .until(() -> receiver.on(path).size() >= DUE);
        List<Long> lateness = receiver.on(path).stream()
                .map(received ->
                        Duration.between(received.sendAt(), received.at()).toMillis())
                .sorted()
                .toList();
        long p50 = lateness.get(lateness.size() / 2);
        long p99 = lateness.get((int) Math.ceil(lateness.size() * 0.99) - 1);
        long max = lateness.get(lateness.size() - 1);
        System.out.printf(
                "Lateness of %d reminders due among %d pending: p50 %d ms, p99 %d ms, max %d ms, duplicates %d%n",
                lateness.size(), FAR_MEETINGS * TEN_REMINDERS.length, p50, p99, max, lateness.size() - DUE);
        assertThat(receiver.on(path)).extracting(Received::deliveryId).doesNotHaveDuplicates();
        assertThat(lateness.get(0)).isNotNegative();
        assertThat(p99).isLessThan(10_000);
        assertThat(receiver.on("/far")).isEmpty();
    }

    private static void create(ClassLoader testLoader, MeetingBody meeting) {
        Thread.currentThread().setContextClassLoader(testLoader);
        Api.create(meeting);
    }
}
