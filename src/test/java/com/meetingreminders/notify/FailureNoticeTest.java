package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.EventStream.Event;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Signatures;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a meeting's owner hears when a reminder ends FAILED (the test profile allows 3 attempts, 100 ms apart at first):
 * a {@code reminder.failed} event on the stream and one signed POST to the meeting's failureWebhookUrl, checked as a
 * receiver would, with the Standard Webhooks library and the owner's secret.
 */
@QuarkusTest
class FailureNoticeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/reminders/stream")
    URI streamUri;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    private EventStream stream;

    @AfterEach
    void closeStream() {
        if (stream != null) {
            stream.close();
        }
    }

    private static String newCaller() {
        return "failure-" + UUID.randomUUID();
    }

    /** A meeting of the caller whose reminder is due already, so its attempts start at once. */
    private static MeetingBody dueNow() {
        return meeting().startsAt(Moments.now().plusSeconds(60)).remindBefore("PT2M");
    }

    private static String create(String caller, MeetingBody body) {
        return Api.createWith(Tokens.bearer(caller), body);
    }

    private static String statusOf(String caller, String meetingId) {
        return given().header("Authorization", Tokens.bearer(caller))
                .get("/meetings/" + meetingId + "/reminders")
                .then()
                .statusCode(200)
                .extract()
                .path("[0].status");
    }

    private static boolean noticeRecorded(String meetingId) {
        return Database.queryLong(
                        Database.TEST_DATABASE,
                        "select count(*) from reminder where failure_noticed_at is not null and meeting_id = '"
                                + meetingId + "'")
                == 1;
    }

    /**
     * Returns once a pass over the owed notices has taken what it could, at a moment when it could have taken this
     * meeting's notice again, had its record not kept it from that; and asserts that it did not. The notice's lease is
     * run out behind the service's back, as 10 s would, and for good, so that no pass's clock can still find it held.
     * Then another notice is made owed: a later reminder id, which a pass takes only with the earlier ones still owed
     * (it takes them in order of id). Once that one has arrived, a pass has taken it; had it taken this meeting's
     * notice too, it would have leased it again in the same statement.
     */
    private void awaitAPassThatCouldTakeItAgain(String owner, String meetingId) {
        String leaseOf =
                "select count(*) from reminder where failure_notice_taken_until = '-infinity' and meeting_id = '"
                        + meetingId + "'";
        Database.execute(
                Database.TEST_DATABASE,
                "update reminder set failure_notice_taken_until = '-infinity' where meeting_id = '" + meetingId + "'");
        String passed = "/passed-" + UUID.randomUUID();
        String later = create(owner, meeting().remindBefore("PT5M").with("failureWebhookUrl", receiver.url(passed)));
        failedBehindTheServicesBack(later);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.on(passed).size() == 1);
        assertThat(Database.queryLong(Database.TEST_DATABASE, leaseOf))
                .as("the recorded notice is not taken again")
                .isEqualTo(1);
    }

    /** As a replica that made the meeting's reminders FAILED would leave them had it died before sending the notice. */
    private static void failedBehindTheServicesBack(String meetingId) {
        Database.execute(
                Database.TEST_DATABASE,
                "update reminder set status = 'FAILED', attempts = 3, last_error = 'receiver answered 503'"
                        + " where meeting_id = '" + meetingId + "'");
    }

    @Test
    void aReminderThatEndsFailedIsToldOnceOnTheStreamAndOnceAtTheFailureWebhook() throws Exception {
        String owner = newCaller();
        stream = EventStream.connect(streamUri, owner);
        receiver.alwaysAnswer("/reminder", 500);
        String id = create(
                owner,
                dueNow().webhookUrl(receiver.url("/reminder")).with("failureWebhookUrl", receiver.url("/failed")));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> receiver.on("/failed").size() == 1);
        assertThat(statusOf(owner, id)).isEqualTo("FAILED");
        assertThat(receiver.on("/reminder")).hasSize(3);

        Received notice = receiver.on("/failed").get(0);
        String deliveryId = receiver.on("/reminder").get(0).deliveryId();
        assertThat(notice.header("webhook-id")).isEqualTo(deliveryId + ":failed");
        assertThat(notice.header("Idempotency-Key")).isEqualTo(deliveryId + ":failed");
        assertThat(Signatures.failure(Signatures.secretOf(owner), notice)).isEmpty();
        JsonNode body = notice.json();
        assertThat(body.path("attempts").asInt()).isEqualTo(3);
        assertThat(body.path("lastError").asText()).isEqualTo("receiver answered 500");
        ObjectNode notification = body.deepCopy();
        notification.remove("attempts");
        notification.remove("lastError");
        assertThat(notification).isEqualTo(receiver.on("/reminder").get(0).json());

        await().atMost(Duration.ofSeconds(5))
                .until(() -> !stream.about(deliveryId).isEmpty());
        assertThat(stream.about(deliveryId)).extracting(Event::name).containsExactly("reminder.failed");
        assertThat(JSON.readTree(stream.about(deliveryId).get(0).data())).isEqualTo(body);

        await().atMost(Duration.ofSeconds(5)).until(() -> noticeRecorded(id));
        awaitAPassThatCouldTakeItAgain(owner, id);
        assertThat(receiver.on("/failed")).hasSize(1);
        assertThat(stream.about(deliveryId)).hasSize(1);
    }

    @Test
    void aFailedReminderOfAMovedOccurrenceIsToldWithThatOccurrencesStartNotTheSeries() {
        String owner = newCaller();
        receiver.alwaysAnswer("/moved", 500);
        Instant first = Moments.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);
        String id = create(
                owner,
                meeting()
                        .startsAt(first)
                        .remindBefore("PT2M")
                        .with("recurrence", "FREQ=DAILY")
                        .webhookUrl(receiver.url("/moved"))
                        .with("failureWebhookUrl", receiver.url("/moved-failed")));
        Instant second = first.plus(Duration.ofDays(1));
        // Its reminder is due at once, and the series' own start is two days away.
        Instant movedTo = Moments.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS);
        given().header("Authorization", Tokens.bearer(owner))
                .contentType(ContentType.JSON)
                .body(Map.of("startsAt", movedTo.toString()))
                .patch("/meetings/{id}/occurrences/{occurrence}", id, second.toString())
                .then()
                .statusCode(200);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> receiver.on("/moved-failed").size() == 1);
        JsonNode notice = receiver.on("/moved-failed").get(0).json();
        assertThat(notice.path("startsAt").asText()).isEqualTo(movedTo.toString());
        assertThat(notice.path("occurrence").asText()).isEqualTo(second.toString());
        assertThat(notice.path("sendAt").asText())
                .isEqualTo(movedTo.minus(Duration.ofMinutes(2)).toString());
    }

    @Test
    void aDeliveredReminderStaysAnUnnamedEventAndSendsNoNotice() throws Exception {
        String owner = newCaller();
        stream = EventStream.connect(streamUri, owner);
        create(owner, dueNow().webhookUrl(receiver.url("/ok")).with("failureWebhookUrl", receiver.url("/failed")));

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.on("/ok").size() == 1);
        String deliveryId = receiver.on("/ok").get(0).deliveryId();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !stream.about(deliveryId).isEmpty());

        assertThat(stream.about(deliveryId)).extracting(Event::name).containsExactly("message");
        assertThat(receiver.on("/failed")).isEmpty();
    }

    @Test
    void aFailingFailureReceiverIsCountedAndNotTriedAgain() {
        String owner = newCaller();
        receiver.alwaysAnswer("/reminder", 503);
        receiver.alwaysAnswer("/failed", 500);
        double before = notices("failed");
        String id = create(
                owner,
                dueNow().webhookUrl(receiver.url("/reminder")).with("failureWebhookUrl", receiver.url("/failed")));

        await().atMost(Duration.ofSeconds(10)).until(() -> noticeRecorded(id));
        assertThat(notices("failed") - before).isEqualTo(1);
        awaitAPassThatCouldTakeItAgain(owner, id);
        assertThat(receiver.on("/failed")).hasSize(1);
        assertThat(notices("failed") - before).isEqualTo(1);
    }

    @Test
    void aNoticeOwedByAReplicaThatDiedIsSentByAnotherReplicasPass() throws Exception {
        String owner = newCaller();
        stream = EventStream.connect(streamUri, owner);
        // A reminder far ahead, then FAILED behind the service's back, as if the replica that failed it had died before
        // it could send the notice.
        String id = create(owner, meeting().remindBefore("PT5M").with("failureWebhookUrl", receiver.url("/failed")));
        failedBehindTheServicesBack(id);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> receiver.on("/failed").size() == 1);
        Received notice = receiver.on("/failed").get(0);
        assertThat(notice.deliveryId()).startsWith(id + ":");
        assertThat(notice.header("webhook-id")).isEqualTo(notice.deliveryId() + ":failed");
        assertThat(Signatures.failure(Signatures.secretOf(owner), notice)).isEmpty();
        assertThat(notice.json().path("lastError").asText()).isEqualTo("receiver answered 503");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !stream.about(notice.deliveryId()).isEmpty());
        assertThat(stream.about(notice.deliveryId())).extracting(Event::name).containsExactly("reminder.failed");
    }

    @Test
    void aMeetingShowsItsFailureWebhookUrlAndAReplaceWithoutOneRemovesIt() {
        String url = receiver.url("/failed?team=7");
        String id = Api.create(meeting().with("failureWebhookUrl", url)).getString("id");

        given().get("/meetings/" + id).then().statusCode(200).body("failureWebhookUrl", equalTo(url));
        Map<String, Object> replaced = Api.replace(id, meeting()).getMap("$");
        assertThat(replaced).containsEntry("failureWebhookUrl", null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com/failed", "ftp://127.0.0.1/failed", "/failed", "http://"})
    void refusesAFailureWebhookUrlThatIsNotAnAllowedHttpUrlAndStoresNothing(String url) {
        long before = Database.countMeetings();

        given().contentType(ContentType.JSON)
                .body(meeting().with("failureWebhookUrl", url).toMap())
                .post("/meetings")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", hasItem("failureWebhookUrl"));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void theApiDescriptionNamesTheFailureWebhookAndTheStreamsFailureEvent() {
        given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .body(
                        "components.schemas.MeetingRequest.properties.failureWebhookUrl.examples",
                        hasItem("https://hooks.example.com/reminders/failed"))
                .body("components.schemas.MeetingView.properties", hasKey("failureWebhookUrl"))
                .body("paths.'/reminders/stream'.get.description", containsString("reminder.failed"));
    }

    /** reminders_failure_notices_total{outcome=...} at /q/metrics. */
    static double notices(String outcome) {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher value = Pattern.compile("(?m)^reminders_failure_notices_total\\{outcome=\"" + outcome + "\"} (\\S+)$")
                .matcher(text);
        assertThat(value.find())
                .as("the " + outcome + "-notice counter is exported")
                .isTrue();
        return Double.parseDouble(value.group(1));
    }
}
