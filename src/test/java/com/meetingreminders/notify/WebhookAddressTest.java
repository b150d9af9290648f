package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A host name on the allow-list is no way into the service's own network: the operator here allows the name localhost
 * and not its address, as an operator allows a name whose DNS someone else controls. Reminders and failure notices to
 * it are accepted, and then never sent to the loopback address it resolves to.
 */
@QuarkusTest
@TestProfile(WebhookAddressTest.NameWithoutItsAddress.class)
class WebhookAddressTest {

    public static class NameWithoutItsAddress implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "reminders.webhook.allowed-hosts",
                    "localhost",
                    "reminders.redis.key-prefix",
                    "reminders-address-" + UUID.randomUUID() + ":");
        }
    }

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void sendsNothingToAnAllowedNameThatResolvesToAnInternalAddressTheListDoesNotName() {
        String base = "http://localhost:" + receiver.port();
        double refusedNoticesBefore = FailureNoticeTest.notices("refused");
        Instant startsAt = Moments.now().plusSeconds(2);

        String id = Api.create(meeting()
                        .startsAt(startsAt)
                        .remindBefore("PT1S")
                        .webhookUrl(base + "/reminder")
                        .with("failureWebhookUrl", base + "/failed"))
                .getString("id");

        await().atMost(Duration.ofSeconds(15))
                .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));
        assertThat(Api.onlyReminder(id))
                .containsEntry(
                        "lastError",
                        "the webhook's host resolves to an internal address that reminders.webhook.allowed-hosts does"
                                + " not name");
        await().atMost(Duration.ofSeconds(15)).until(() -> FailureNoticeTest.notices("refused") > refusedNoticesBefore);
        assertThat(receiver.on("/reminder")).isEmpty();
        assertThat(receiver.on("/failed")).isEmpty();
    }
}
