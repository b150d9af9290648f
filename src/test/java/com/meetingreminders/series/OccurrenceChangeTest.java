package com.meetingreminders.series;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One occurrence of a series moved or cancelled: its reminders follow, and a cancelled one is never sent. */
@QuarkusTest
class OccurrenceChangeTest {

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void movingAnOccurrencePlansItsRemindersAtTheNewStartAndRaisesTheVersion() {
        Instant first = tomorrow();
        String id = dailySeries(first);
        String etag = given().get("/meetings/" + id).then().extract().header("ETag");
        Instant second = first.plus(Duration.ofDays(1));
        Instant movedTo = second.plus(Duration.ofHours(2));

        String newEtag = change(id, second, Map.of("startsAt", movedTo.toString()))
                .statusCode(200)
                .body("occurrence", equalTo(second.toString()))
                .body("startsAt", equalTo(movedTo.toString()))
                .body("status", equalTo("MOVED"))
                .extract()
                .header("ETag");

        assertThat(newEtag).isNotEqualTo(etag);
        assertThat(statusesAt(id, second.minus(Duration.ofMinutes(5)), movedTo.minus(Duration.ofMinutes(5))))
                .containsExactly("CANCELLED", "SCHEDULED");
        JsonPath listed = occurrences(id, first);
        assertThat(listed.getList("items.status", String.class)).containsExactly("SCHEDULED", "MOVED", "SCHEDULED");
        assertThat(listed.getString("items[1].startsAt")).isEqualTo(movedTo.toString());
        // The old ETag no longer matches: a move is a change of the meeting like any other.
        given().header("If-Match", etag)
                .delete("/meetings/{id}/occurrences/{occurrence}", id, second.toString())
                .then()
                .statusCode(412);
    }

    @Test
    void theCalendarExportWritesAMovedOccurrenceAsARecurrenceIdEvent() {
        Instant first = Instant.parse("2030-01-07T08:00:00Z");
        String id = Api.create(meeting()
                        .startsAt(first)
                        .timeZone("Europe/Paris")
                        .with("recurrence", "FREQ=WEEKLY;BYDAY=MO")
                        .remindBefore("PT5M"))
                .getString("id");
        change(id, first.plus(Duration.ofDays(7)), Map.of("startsAt", "2030-01-15T09:30:00Z"))
                .statusCode(200);

        String calendar = given().accept("text/calendar")
                .get("/meetings/" + id)
                .then()
                .statusCode(200)
                .extract()
                .asString();

        assertThat(calendar.replace("\r\n ", ""))
                .containsOnlyOnce("RECURRENCE-ID;TZID=Europe/Paris:20300114T090000")
                .contains("DTSTART;TZID=Europe/Paris:20300115T103000")
                .containsSubsequence("RRULE:FREQ=WEEKLY;BYDAY=MO", "END:VEVENT", "BEGIN:VEVENT", "UID:" + id);
    }

    @Test
    void anOccurrenceMovedFromBeyondTheHorizonIntoItIsPlannedAtOnce() {
        Instant first = tomorrow();
        String id = dailySeries(first);
        Instant farOff = first.plus(Duration.ofDays(5));
        Instant movedTo = first.plus(Duration.ofHours(3));

        change(id, farOff, Map.of("startsAt", movedTo.toString())).statusCode(200);

        assertThat(statusesAt(id, movedTo.minus(Duration.ofMinutes(5)))).containsExactly("SCHEDULED");
    }

    @Test
    void cancellingTheOnlyOccurrenceOfAOneOffMeetingCancelsItsReminder() {
        Instant startsAt = tomorrow();
        String id =
                Api.create(meeting().startsAt(startsAt).remindBefore("PT5M")).getString("id");

        cancel(id, startsAt).statusCode(204);

        assertThat(statusesAt(id, startsAt.minus(Duration.ofMinutes(5)))).containsExactly("CANCELLED");
        assertThat(occurrences(id, startsAt).getList("items.status", String.class))
                .containsExactly("CANCELLED");
    }

    @Test
    void cancellingAnOccurrenceByDeleteOrPatchCancelsItsReminders() {
        Instant first = tomorrow();
        String id = dailySeries(first);
        Instant second = first.plus(Duration.ofDays(1));
        Instant third = second.plus(Duration.ofDays(1));

        cancel(id, second).statusCode(204).header("ETag", notNullValue());
        change(id, third, Map.of("cancelled", true)).statusCode(200).body("status", equalTo("CANCELLED"));

        // The third lies beyond the tests' horizon: it had no reminder row to cancel, and will never get one.
        assertThat(statusesAt(id, second.minus(Duration.ofMinutes(5)))).containsExactly("CANCELLED");
        assertThat(occurrences(id, first).getList("items.status", String.class))
                .containsExactly("SCHEDULED", "CANCELLED", "CANCELLED");
        assertThat(given().get("/meetings/" + id).jsonPath().getList("cancelledOccurrences", String.class))
                .hasSize(2);
    }

    @Test
    void movingACancelledOccurrenceBackToItsStartRestoresIt() {
        Instant first = tomorrow();
        String id = dailySeries(first);
        Instant second = first.plus(Duration.ofDays(1));
        cancel(id, second).statusCode(204);

        change(id, second, Map.of("startsAt", second.toString()))
                .statusCode(200)
                .body("status", equalTo("SCHEDULED"));

        assertThat(statusesAt(id, second.minus(Duration.ofMinutes(5)))).containsExactly("SCHEDULED");
    }

    @Test
    void aChangeOfTheRuleDropsTheMovesAndAChangeOfTheTitleKeepsThem() {
        Instant first = tomorrow();
        String id = dailySeries(first);
        Instant second = first.plus(Duration.ofDays(1));
        change(id, second, Map.of("startsAt", second.plus(Duration.ofHours(1)).toString()))
                .statusCode(200);

        mergePatch(id, Map.of("title", "Renamed"));
        assertThat(occurrences(id, first).getString("items[1].status")).isEqualTo("MOVED");

        mergePatch(id, Map.of("startsAt", first.plus(Duration.ofMinutes(30)).toString()));
        assertThat(occurrences(id, first).getList("items.status", String.class)).containsOnly("SCHEDULED");
    }

    @Test
    void answers404ForAnInstantThatIsNotAnOccurrenceOrAnotherCallersMeeting() {
        Instant first = tomorrow();
        String id = dailySeries(first);
        String path = "/meetings/{id}/occurrences/{occurrence}";

        given().delete(path, id, first.plusSeconds(1).toString()).then().statusCode(404);
        given().delete(path, id, "not-an-instant").then().statusCode(404);
        // Instants no meeting reaches, at the ends of what Instant can hold.
        for (String far :
                List.of("-999999999-01-01T00:00:00Z", "+1000000000-01-01T00:00:00Z", "+10000-01-01T00:00:00Z")) {
            given().delete(path, id, far).then().statusCode(404).contentType("application/problem+json");
            given().contentType(ContentType.JSON)
                    .body("{\"cancelled\": true}")
                    .patch(path, id, far)
                    .then()
                    .statusCode(404)
                    .contentType("application/problem+json");
            given().post("/meetings/{id}/reminders/{sendAt}/retry", id, far)
                    .then()
                    .statusCode(404)
                    .contentType("application/problem+json");
        }
        given().delete(path, UUID.randomUUID(), first.toString()).then().statusCode(404);
        given().header("Authorization", Tokens.bearer("mallory"))
                .delete(path, id, first.toString())
                .then()
                .statusCode(404);
        assertThat(occurrences(id, first).getList("items.status", String.class)).containsOnly("SCHEDULED");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{}",
                "{\"cancelled\": false}",
                "{\"cancelled\": \"yes\"}",
                "{\"cancelled\": \"true\"}",
                "{\"cancelled\": 1}",
                "{\"cancelled\": 1.0}",
                "{\"startsAt\": \"2031-01-01T00:00:00Z\", \"cancelled\": \"\"}",
                "{\"startsAt\": \"\", \"cancelled\": true}",
                "{\"startsAt\": \"  \", \"cancelled\": true}",
                "{\"startsAt\": 5}",
                "{\"startsAt\": \"1999-12-31T00:00:00Z\"}",
                "{\"startsAt\": \"2027-01-01T00:00:00Z\", \"cancelled\": true}",
                "[]"
            })
    void refusesABodyThatIsNotOneMoveOrOneCancellation(String body) {
        Instant first = tomorrow();
        String id = dailySeries(first);

        given().contentType(ContentType.JSON)
                .body(body)
                .patch("/meetings/{id}/occurrences/{occurrence}", id, first.toString())
                .then()
                .statusCode(400)
                .contentType("application/problem+json");
        assertThat(occurrences(id, first).getList("items.status", String.class)).containsOnly("SCHEDULED");
    }

    @ParameterizedTest(name = "{0} ms before the send time")
    @ValueSource(longs = {90, 50, 20})
    void aCancelInTheLast100MillisecondsSendsNothingOfTheOccurrence(long millisBefore) {
        String path = "/cancelled-" + millisBefore;
        // A lead sized to the two creates here and now; the probe's first run pays a fresh application's warm-up of
        // the first series and webhook target, and its second is timed.
        Duration lead = LeadTime.toCreate(
                2,
                1,
                () -> Api.create(meeting().with("recurrence", "FREQ=DAILY").webhookUrl(receiver.url("/warm-up"))));
        Instant sendAt = LeadTime.fromNow(lead);
        Instant startsAt = sendAt.plusSeconds(1);
        String id = Api.create(meeting()
                        .startsAt(startsAt)
                        .with("recurrence", "FREQ=DAILY")
                        .remindBefore("PT1S")
                        .webhookUrl(receiver.url(path)))
                .getString("id");
        String sentinel = "/sentinel-" + UUID.randomUUID();
        Api.create(
                meeting().startsAt(sendAt.plusSeconds(2)).remindBefore("PT1S").webhookUrl(receiver.url(sentinel)));
        LeadTime.requireBefore(sendAt.minusMillis(millisBefore));

        Moments.waitUntil(sendAt.minusMillis(millisBefore));
        cancel(id, startsAt).statusCode(204);
        Instant answeredAt = Instant.now();

        await().atMost(Duration.ofSeconds(6)).until(() -> receiver.on(sentinel).size() == 1);
        Object status = statusesAt(id, sendAt).get(0);
        if (answeredAt.isBefore(sendAt)) {
            assertThat(status).isEqualTo("CANCELLED");
        }
        if ("CANCELLED".equals(status)) {
            assertThat(receiver.on(path)).isEmpty();
        } else {
            // The cancel landed after the send time and waited for the delivery under way: sent once, before.
            assertThat(status).isEqualTo("DELIVERED");
            assertThat(receiver.on(path)).singleElement().satisfies(r -> assertThat(r.at())
                    .isBefore(answeredAt));
        }
    }

    private static ValidatableResponse change(String id, Instant occurrence, Map<String, Object> body) {
        return given().contentType(ContentType.JSON)
                .body(body)
                .patch("/meetings/{id}/occurrences/{occurrence}", id, occurrence.toString())
                .then();
    }

    private static ValidatableResponse cancel(String id, Instant occurrence) {
        return given().delete("/meetings/{id}/occurrences/{occurrence}", id, occurrence.toString())
                .then();
    }

    private static Instant tomorrow() {
        return Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
    }

    private static String dailySeries(Instant first) {
        return Api.create(meeting()
                        .startsAt(first)
                        .with("recurrence", "FREQ=DAILY")
                        .remindBefore("PT5M"))
                .getString("id");
    }

    private static void mergePatch(String id, Map<String, Object> patch) {
        given().contentType("application/merge-patch+json")
                .body(patch)
                .patch("/meetings/" + id)
                .then()
                .statusCode(200);
    }

    private static JsonPath occurrences(String id, Instant first) {
        return given().queryParam("from", first.toString())
                .queryParam("to", first.plus(Duration.ofDays(3)).toString())
                .get("/meetings/" + id + "/occurrences")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** The statuses of the meeting's reminders at these send times, in the order asked. */
    private static List<Object> statusesAt(String id, Instant... sendAts) {
        List<Map<String, Object>> reminders = Api.reminders(id);
        return java.util.Arrays.stream(sendAts)
                .map(sendAt -> reminders.stream()
                        .filter(r -> r.get("sendAt").equals(sendAt.toString()))
                        .map(r -> r.get("status"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no reminder at " + sendAt + " in " + reminders)))
                .toList();
    }
}
