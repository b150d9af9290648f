package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusTest;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The test profile allows 3 attempts, 100 ms apart at first, doubling. */
@QuarkusTest
class RetryTest {

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void retriesWithGrowingBackoffUntilTheReceiverAccepts() {
        String path = "/flaky";
        receiver.answerInTurn(path, 500, 500);
        String id = scheduleSoon(receiver.url(path));

        await().atMost(Duration.ofSeconds(8))
                .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));

        Map<String, Object> reminder = Api.onlyReminder(id);
        assertThat(reminder).containsEntry("attempts", 3).containsEntry("lastError", "receiver answered 500");
        List<Received> attempts = receiver.on(path);
        assertThat(attempts)
                .hasSize(3)
                .extracting(Received::deliveryId)
                .containsOnly(attempts.get(0).deliveryId());
        assertThat(attempts)
                .extracting(r -> r.header("Idempotency-Key"))
                .containsOnly(attempts.get(0).deliveryId());
        assertThat(Duration.between(attempts.get(0).at(), attempts.get(1).at()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertThat(Duration.between(attempts.get(1).at(), attempts.get(2).at()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void marksAReminderFailedOnceEveryAttemptFailed() {
        String path = "/down";
        receiver.alwaysAnswer(path, 503);
        String id = scheduleSoon(receiver.url(path));

        await().atMost(Duration.ofSeconds(8))
                .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));

        assertThat(Api.onlyReminder(id))
                .containsEntry("attempts", 3)
                .containsEntry("lastError", "receiver answered 503");
        assertThat(receiver.on(path)).hasSize(3);
    }

    @Test
    void countsAReceiverThatRefusesConnectionsAsAFailedAttempt() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String id = scheduleSoon("http://127.0.0.1:" + closedPort + "/nobody");

        await().atMost(Duration.ofSeconds(8))
                .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));

        assertThat(Api.onlyReminder(id))
                .containsEntry("attempts", 3)
                .containsEntry("lastError", "could not connect to the receiver");
    }

    private static String scheduleSoon(String webhookUrl) {
        Instant startsAt = Moments.now().plusSeconds(2);
        return Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(webhookUrl))
                .getString("id");
    }
}
