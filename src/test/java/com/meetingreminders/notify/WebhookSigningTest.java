package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Signatures;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a receiver of a meeting's own webhookUrl gets, checked as a receiver would: with the Standard Webhooks library
 * and the secret GET /signing-secret gives the meeting's owner.
 */
@QuarkusTest
class WebhookSigningTest {

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    private static String newCaller() {
        return "signed-" + UUID.randomUUID();
    }

    /** A meeting of the caller whose reminder is due already, so it goes out at once. */
    private static String createDueNow(String caller, String url) {
        return Api.createWith(
                Tokens.bearer(caller),
                meeting()
                        .startsAt(Moments.now().plusSeconds(60))
                        .remindBefore("PT2M")
                        .webhookUrl(url));
    }

    @Test
    void aMeetingsOwnWebhookIsSignedWithItsOwnersSecretAndWithNoOtherOne() {
        String owner = newCaller();
        String path = "/own";
        String id = createDueNow(owner, receiver.url(path));

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.on(path).size() == 1);

        Received got = receiver.on(path).get(0);
        String deliveryId = got.deliveryId();
        assertThat(deliveryId).startsWith(id + ":");
        assertThat(got.header("webhook-id")).isEqualTo(deliveryId);
        assertThat(got.header("Idempotency-Key")).isEqualTo(deliveryId);
        assertThat(Long.parseLong(got.header("webhook-timestamp")))
                .isBetween(got.at().getEpochSecond() - 5, got.at().getEpochSecond());
        assertThat(got.header("webhook-signature")).matches("v1,[A-Za-z0-9+/]{43}=");
        assertThat(got.headers()).doesNotContainKey("x-reminder-signature");
        // The first send made the owner's secret; GET /signing-secret gives the same one.
        assertThat(Signatures.failure(Signatures.secretOf(owner), got)).isEmpty();
        assertThat(Signatures.verifies(Signatures.TEST_SECRET, got))
                .as("the deployment's secret")
                .isFalse();
        assertThat(Signatures.verifies(Signatures.secretOf(newCaller()), got))
                .as("another caller's secret")
                .isFalse();
    }

    @Test
    void everyAttemptIsSignedAfreshWithItsOwnTimestamp() {
        String owner = newCaller();
        String path = "/retried";
        // The first attempt gets no answer within the webhook timeout (2 s in the test profile); the second one, after
        // the backoff, at least 2 s later, gets 200.
        receiver.holdAnswers();
        createDueNow(owner, receiver.url(path));
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.on(path).size() == 2);
        receiver.releaseAnswers();

        List<Received> attempts = receiver.on(path);
        Received first = attempts.get(0);
        Received second = attempts.get(1);
        assertThat(second.header("webhook-id")).isEqualTo(first.header("webhook-id"));
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(Long.parseLong(second.header("webhook-timestamp")))
                .isGreaterThanOrEqualTo(Long.parseLong(first.header("webhook-timestamp")) + 2);
        assertThat(second.header("webhook-signature")).isNotEqualTo(first.header("webhook-signature"));
        String secret = Signatures.secretOf(owner);
        assertThat(attempts).allSatisfy(attempt -> assertThat(Signatures.failure(secret, attempt))
                .isEmpty());
    }

    @Test
    void remindersOfSeveralCallersDueTogetherAreEachSignedWithTheirOwnersSecret() {
        List<String> owners = IntStream.range(0, 4).mapToObj(i -> newCaller()).toList();
        owners.forEach(owner -> createDueNow(owner, receiver.url("/" + owner)));

        await().atMost(Duration.ofSeconds(10)).until(() -> owners.stream()
                .allMatch(owner -> receiver.on("/" + owner).size() == 1));

        for (String owner : owners) {
            Received got = receiver.on("/" + owner).get(0);
            for (String other : owners) {
                assertThat(Signatures.verifies(Signatures.secretOf(other), got))
                        .as("%s's webhook verified with %s's secret", owner, other)
                        .isEqualTo(other.equals(owner));
            }
        }
    }
}
