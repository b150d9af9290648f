package com.meetingreminders.tracing;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that sends a W3C {@code traceparent} with its create finds its trace id in the {@code traceparent} of the
 * webhook that delivers the reminder: the request's trace context is kept with the reminder. The test profile names no
 * collector, so the ids are passed on with the "not sampled" flag and nothing is exported.
 */
@QuarkusTest
class TraceContextTest {

    /**
     * Several creates, each its own trace: a request that loses its trace context on the way to the endpoint (as one
     * resumed off its Vert.x context after the rate count did) loses it only now and then.
     */
    private static final int MEETINGS = 8;

    private static final SecureRandom RANDOM = new SecureRandom();

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void theWebhookCarriesTheTraceOfTheRequestThatCreatedTheMeeting() {
        // Due a second after the create; one whose time has passed by then is sent at once, which serves as well.
        Instant startsAt = Moments.now().plusSeconds(60);
        Map<String, String> traceByPath = new LinkedHashMap<>();
        for (int i = 0; i < MEETINGS; i++) {
            String traceId = randomHex(16);
            String path = "/traced-" + i;
            given().header("traceparent", "00-" + traceId + "-" + randomHex(8) + "-01")
                    .contentType(ContentType.JSON)
                    .body(meeting()
                            .startsAt(startsAt)
                            .remindBefore("PT59S")
                            .webhookUrl(receiver.url(path))
                            .toMap())
                    .post("/meetings")
                    .then()
                    .statusCode(201);
            traceByPath.put(path, traceId);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> traceByPath.keySet().stream()
                .allMatch(path -> receiver.on(path).size() == 1));
        traceByPath.forEach(
                (path, traceId) -> assertThat(receiver.on(path).get(0).header("traceparent"))
                        .as("traceparent of the webhook on %s", path)
                        .matches("00-" + traceId + "-[0-9a-f]{16}-00"));
    }

    private static String randomHex(int bytes) {
        byte[] id = new byte[bytes];
        RANDOM.nextBytes(id);
        return HexFormat.of().formatHex(id);
    }
}
