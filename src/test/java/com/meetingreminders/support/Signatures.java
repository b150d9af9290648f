package com.meetingreminders.support;

import static io.restassured.RestAssured.given;

import com.meetingreminders.support.WebhookReceiver.Received;
import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a receiver does to check a webhook: the Standard Webhooks library's own {@code Webhook.verify}, with its
 * 5-minute tolerance, never the service's signing code.
 */
public final class Signatures {

    /** The deployment's secret in the test profile (reminders.webhook.secret). */
    public static final String TEST_SECRET = "whsec_mR2+PlNsmkn/VEw56tQVJbsfw9Ir3VsOrR7uSaXmdas=";

    private Signatures() {}

    /** Empty when the secret verifies what the receiver got; otherwise the library's reason. */
    public static Optional<String> failure(String secret, Received received) {
        Map<String, List<String>> headers = received.headers().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
        try {
            new Webhook(secret).verify(received.body(), headers);
            return Optional.empty();
        } catch (WebhookVerificationException e) {
            return Optional.of(e.getMessage());
        }
    }

    public static boolean verifies(String secret, Received received) {
        return failure(secret, received).isEmpty();
    }

    /** The caller's signing secret, as GET /signing-secret answers it to the caller's token. */
    public static String secretOf(String caller) {
        return given().header("Authorization", Tokens.bearer(caller))
                .get("/signing-secret")
                .then()
                .statusCode(200)
                .extract()
                .path("secret");
    }
}
