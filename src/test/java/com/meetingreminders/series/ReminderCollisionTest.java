package com.meetingreminders.series;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Problems;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two occurrences of one meeting never share a reminder: a reminder is known by its meeting and send time (its
 * deliveryId), so a change that would put reminders of two occurrences at one instant is refused, 409, and changes
 * nothing, wherever on the horizon the two are.
 */
@QuarkusTest
class ReminderCollisionTest {

    private static final String COLLISION = "/problems/reminder-collision";

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    /** Days from the first occurrence: 1 is within the 48 h horizon, 100 far beyond it. */
    @ParameterizedTest(name = "{0} day(s) on")
    @ValueSource(ints = {1, 100})
    void movingAnOccurrenceOntoAnotherOccurrencesReminderIsRefusedAndChangesNothing(int days) {
        Instant first = tomorrow();
        String id = dailySeries(first, "PT5M", "PT1H");
        Instant moving = first.plus(Duration.ofDays(days));
        Instant next = moving.plus(Duration.ofDays(1));
        Snapshot before = Snapshot.of(id);

        // Its 5-minute reminder would be at the next occurrence's one-hour reminder.
        Instant movedTo = next.minus(Duration.ofMinutes(55));
        refused(move(id, moving, movedTo))
                .body("detail", containsString(moving.toString()))
                .body("detail", containsString(next.toString()))
                .body("detail", containsString(next.minus(Duration.ofHours(1)).toString()));

        assertThat(Snapshot.of(id)).isEqualTo(before);
    }

    @Test
    void aMoveThatMissesTheOtherRemindersByAMillisecondIsTaken() {
        Instant first = tomorrow();
        String id = dailySeries(first, "PT5M", "PT1H");
        Instant next = first.plus(Duration.ofDays(2));

        given().contentType(ContentType.JSON)
                .body(Map.of(
                        "startsAt",
                        next.minus(Duration.ofMinutes(55)).plusMillis(1).toString()))
                .patch(
                        "/meetings/{id}/occurrences/{occurrence}",
                        id,
                        first.plus(Duration.ofDays(1)).toString())
                .then()
                .statusCode(200)
                .body("status", equalTo("MOVED"));
    }

    @Test
    void aPatchOfTheSeriesThatMakesAMovedOccurrenceCollideIsRefusedAndChangesNothing() {
        Instant first = tomorrow();
        String id = dailySeries(first, "PT5M");
        Instant moving = first.plus(Duration.ofDays(1));
        Instant next = first.plus(Duration.ofDays(2));
        move(id, moving, next.minus(Duration.ofMinutes(55))).statusCode(200);
        Snapshot before = Snapshot.of(id);

        refused(given().contentType("application/merge-patch+json")
                .body(Map.of("remindBefore", List.of("PT5M", "PT1H")))
                .patch("/meetings/" + id)
                .then());

        assertThat(Snapshot.of(id)).isEqualTo(before);
    }

    @Test
    void undoingAMoveOntoAnOccurrenceMovedThereIsRefused() {
        Instant first = tomorrow();
        String id = dailySeries(first, "PT5M");
        Instant second = first.plus(Duration.ofDays(1));
        Instant third = first.plus(Duration.ofDays(2));
        // The third moves to where the second was, once the second has moved away.
        move(id, second, second.plus(Duration.ofHours(3))).statusCode(200);
        move(id, third, second).statusCode(200);
        Snapshot before = Snapshot.of(id);

        refused(move(id, second, second));

        assertThat(Snapshot.of(id)).isEqualTo(before);
    }

    /** Days from now to the first occurrence: 1 is within the 48 h horizon, 100 far beyond it. */
    @ParameterizedTest(name = "{0} day(s) on")
    @ValueSource(ints = {1, 100})
    void aRuleWhoseOwnOccurrencesShareRemindersIsRefusedOnCreateAndStoresNothing(int days) {
        long before = Database.countMeetings();
        Map<String, Object> hourly = meeting()
                .startsAt(tomorrow().plus(Duration.ofDays(days - 1)))
                .remindBefore("PT0S", "PT1H")
                .with("recurrence", "FREQ=HOURLY;COUNT=5")
                .toMap();

        refused(given().contentType(ContentType.JSON)
                        .body(hourly)
                        .post("/meetings")
                        .then())
                .body("detail", containsString(" of the meeting would"));
        refused(given().contentType(ContentType.JSON)
                        .body(List.of(meeting().startsAt(tomorrow()).toMap(), hourly))
                        .post("/meetings/batch")
                        .then())
                .body("detail", containsString("meeting [1]"));
        refused(given().contentType(ContentType.JSON)
                        .body(List.of(hourly))
                        .post("/meetings/batch")
                        .then())
                .body("detail", containsString("meeting [0]"));

        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void aPatchOfASeriesBeyondTheHorizonWhoseRuleThenSharesRemindersIsRefusedAndChangesNothing() {
        String id = dailySeries(tomorrow().plus(Duration.ofDays(100)), "PT5M");
        Snapshot before = Snapshot.of(id);

        // A day apart, each occurrence's one-day reminder falls at the instant of the one before.
        refused(given().contentType("application/merge-patch+json")
                .body(Map.of("remindBefore", List.of("PT0S", "P1D")))
                .patch("/meetings/{id}", id)
                .then());

        assertThat(Snapshot.of(id)).isEqualTo(before);
    }

    /** PATCH of one occurrence to a new start. */
    private static ValidatableResponse move(String id, Instant occurrence, Instant startsAt) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("startsAt", startsAt.toString()))
                .patch("/meetings/{id}/occurrences/{occurrence}", id, occurrence.toString())
                .then();
    }

    private static ValidatableResponse refused(ValidatableResponse answer) {
        return answer.statusCode(409).contentType(Problems.MEDIA_TYPE).body("type", equalTo(COLLISION));
    }

    /** What a refused change must leave as it was: the version, the reminders and the occurrences. */
    private record Snapshot(String etag, List<Map<String, Object>> reminders, Object occurrences) {
        static Snapshot of(String id) {
            String etag = given().get("/meetings/" + id)
                    .then()
                    .statusCode(200)
                    .extract()
                    .header("ETag");
            Object occurrences = given().queryParam("size", "100")
                    .get("/meetings/" + id + "/occurrences")
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("items");
            return new Snapshot(etag, Api.reminders(id), occurrences);
        }
    }

    private static Instant tomorrow() {
        return Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
    }

    private static String dailySeries(Instant first, String... remindBefore) {
        return Api.create(meeting()
                        .startsAt(first)
                        .with("recurrence", "FREQ=DAILY")
                        .remindBefore(remindBefore))
                .getString("id");
    }
}
