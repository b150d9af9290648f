package com.meetingreminders.reminder;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Figures;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The test profile's webhook timeout is 2 s, with 3 attempts. */
@QuarkusTest
class SlowReceiverTest {

    private static final int OTHERS = 20;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void aReceiverThatNeverAnswersDelaysNoOtherMeetingAndItsReminderEndsFailed() {
        receiver.neverAnswer("/black-hole");
        Instant sendAt = Moments.now().plusSeconds(2);
        String stuck = Api.create(meeting()
                        .startsAt(sendAt.plusSeconds(1))
                        .remindBefore("PT1S")
                        .webhookUrl(receiver.url("/black-hole")))
                .getString("id");
        // The first few fall due with the stuck one and may share its delivery round; the rest come while it waits.
        IntStream.range(0, OTHERS)
                .forEach(i -> Api.create(meeting()
                        .startsAt(sendAt.plusMillis(150L * (i / 4) * 4).plusSeconds(1))
                        .remindBefore("PT1S")
                        .webhookUrl(receiver.url("/others"))));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> receiver.on("/others").size() >= OTHERS);
        Figures figures = Figures.of(OTHERS, receiver.on("/others")).print("Others of a receiver that never answers");
        assertThat(figures.delivered()).isEqualTo(OTHERS);
        assertThat(figures.largestLateness()).isLessThan(Duration.ofSeconds(1));

        await().atMost(Duration.ofSeconds(20))
                .until(() -> "FAILED".equals(Api.onlyReminder(stuck).get("status")));
        assertThat(Api.onlyReminder(stuck))
                .containsEntry("attempts", 3)
                .containsEntry("lastError", "no answer within 2000ms");
        assertThat(receiver.on("/black-hole")).hasSize(3);
    }
}
