package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The test profile allows 127.0.0.1 and localhost only (reminders.webhook.allowed-hosts). */
@QuarkusTest
class WebhookAllowListTest {

    private static final String REFUSED = "must point at a host the operator allows (reminders.webhook.allowed-hosts)";

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://metadata.google.internal/computeMetadata/v1/",
                "http://127.0.0.2/hook",
                "http://[::1]:8080/hook",
                "http://10.0.0.5/hook",
                "http://192.168.1.20/hook",
                "http://169.254.169.254/latest/meta-data",
                "http://2130706433/hook",
                "https://hooks.example.com/reminders"
            })
    void refusesAWebhookUrlWhoseHostIsNotAllowed(String url) {
        long before = Database.countMeetings();
        given().contentType(ContentType.JSON)
                .body(meeting().webhookUrl(url).toMap())
                .post("/meetings")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("webhookUrl"))
                .body("errors[0].message", equalTo(REFUSED));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void refusesItOnReplaceAndInABatch() {
        String id = Api.create(meeting()).getString("id");
        given().contentType(ContentType.JSON)
                .body(meeting().webhookUrl("http://10.1.2.3/x").toMap())
                .put("/meetings/" + id)
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("webhookUrl"));
        given().get("/meetings/" + id).then().body("version", equalTo(0));

        long before = Database.countMeetings();
        given().contentType(ContentType.JSON)
                .body(List.of(
                        meeting().webhookUrl(receiver.url("/ok")).toMap(),
                        meeting().webhookUrl("http://192.168.0.1/x").toMap()))
                .post("/meetings/batch")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("[1].webhookUrl"));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void reachesAnAllowedNameAtTheAddressItResolvesToWhenTheListNamesThatAddress() {
        String url = "http://localhost:" + receiver.port() + "/by-name";
        Instant startsAt = Moments.now().plusSeconds(2);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(url))
                .getString("id");

        await().atMost(Duration.ofSeconds(8))
                .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));
        assertThat(receiver.on("/by-name")).singleElement().satisfies(received -> assertThat(received.header("Host"))
                .isEqualTo("localhost:" + receiver.port()));
    }

    @Test
    void doesNotFollowARedirect() {
        receiver.redirect("/moved", receiver.url("/elsewhere"));
        Instant startsAt = Moments.now().plusSeconds(2);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url("/moved")))
                .getString("id");

        await().atMost(Duration.ofSeconds(8))
                .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));
        Map<String, Object> reminder = Api.onlyReminder(id);
        assertThat(reminder).containsEntry("lastError", "receiver answered 307");
        assertThat(receiver.on("/moved")).hasSize(3);
        assertThat(receiver.on("/elsewhere")).isEmpty();
    }

    @Test
    void aHostTakenOffTheListAfterItsMeetingsWereMadeGetsNoneOfTheirReminders() {
        // Delivery is paused while the meetings are made and changed, so that no round has them in hand before the
        // change: a pause answers once the rounds under way have ended, and the rounds after it send nothing.
        Api.pauseDelivery();
        List<String> takenOff;
        String kept;
        try {
            Instant startsAt = Moments.now().plusSeconds(10);
            takenOff = List.of(soon(startsAt, receiver.url("/taken-off")), soon(startsAt, receiver.url("/taken-off")));
            kept = soon(startsAt, receiver.url("/kept"));
            // The host as the operator has since taken it off the list: 127.0.0.2 is loopback too, and not on it.
            Database.execute(
                    Database.TEST_DATABASE,
                    "update meeting set webhook_url = 'http://127.0.0.2:" + receiver.port()
                            + "/taken-off' where id in ('" + String.join("', '", takenOff) + "')");
        } finally {
            Api.resumeDelivery();
        }

        await().atMost(Duration.ofSeconds(30))
                .until(() -> takenOff.stream().allMatch(id -> "FAILED"
                                .equals(Api.onlyReminder(id).get("status")))
                        && "DELIVERED".equals(Api.onlyReminder(kept).get("status")));
        for (String id : takenOff) {
            assertThat(Api.onlyReminder(id))
                    .containsEntry("lastError", "the webhook's host is not on reminders.webhook.allowed-hosts");
        }
        assertThat(receiver.on("/taken-off")).isEmpty();
        assertThat(receiver.on("/kept")).hasSize(1);
    }

    private static String soon(Instant startsAt, String webhookUrl) {
        return Api.create(meeting().startsAt(startsAt).remindBefore("PT9S").webhookUrl(webhookUrl))
                .getString("id");
    }
}
