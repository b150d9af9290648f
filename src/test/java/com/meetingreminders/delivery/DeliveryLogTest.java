package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.CapturedLogs;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The line an operator reads for each delivery. Not run again against the packaged application, as the other delivery
 * tests are (ReminderDeliveryIT): that one logs in a process of its own, out of the test's reach.
 */
@QuarkusTest
class DeliveryLogTest {

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void writesOneLogLineADeliveryWithItsFiguresAsFieldsOfTheirOwn() {
        try (CapturedLogs logs = CapturedLogs.of("com.meetingreminders")) {
            String path = "/logged";
            Instant startsAt = Moments.now().plus(Duration.ofMinutes(30));
            String id = Api.create(
                            meeting().startsAt(startsAt).remindBefore("PT1H").webhookUrl(receiver.url(path)))
                    .getString("id");
            String deliveryId = Api.deliveryId(id, startsAt.minus(Duration.ofHours(1)));

            // The line follows the commit, after the receiver has answered.
            await().atMost(Duration.ofSeconds(10)).until(() -> logs.count("Delivered reminder " + deliveryId) > 0);

            List<CapturedLogs.Line> lines = logs.containing(deliveryId);
            assertThat(lines).hasSize(1);
            CapturedLogs.Line line = lines.get(0);
            assertThat(line.text())
                    .matches("Delivered reminder \\Q" + deliveryId
                            + "\\E \\(channel=webhook, attempt=1, lateness=\\d+ms, path=(event|sweep)\\)");
            assertThat(line.mdc())
                    .containsEntry("deliveryId", deliveryId)
                    .containsEntry("channel", "webhook")
                    .containsEntry("attempt", "1")
                    .containsKeys("latenessMs", "path");
            assertThat(line.text())
                    .contains(
                            "lateness=" + line.mdc().get("latenessMs") + "ms",
                            "path=" + line.mdc().get("path"));
        }
    }
}
