package com.meetingreminders.series;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Series through the API: a rolling horizon of reminder rows, and occurrences listed on demand. */
@QuarkusTest
class SeriesTest {

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void plansAnEndlessDailySeriesOnlyAsFarAsTheHorizon() {
        Instant first = Moments.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        JsonPath created = Api.create(
                meeting().startsAt(first).with("recurrence", "RRULE:FREQ=DAILY").remindBefore("PT5M"));

        assertThat(created.getString("recurrence")).isEqualTo("FREQ=DAILY");
        // 48 hours ahead (the default horizon) plus the longest remindBefore: today's and tomorrow's occurrences.
        assertThat(Api.reminders(created.getString("id")))
                .extracting(reminder -> reminder.get("sendAt") + " " + reminder.get("status"))
                .containsExactly(
                        first.minus(Duration.ofMinutes(5)) + " SCHEDULED",
                        first.plus(Duration.ofDays(1)).minus(Duration.ofMinutes(5)) + " SCHEDULED");
    }

    @Test
    void aNewSeriesIsDueForTheStepOnceHalfItsHorizonHasPassed() {
        Instant first = Moments.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        String series = Api.create(dailyFrom(first, "PT10M")).getString("id");
        String oneOff = Api.create(meeting().startsAt(first)).getString("id");

        // The default horizon of 48 hours, plus the longest remindBefore, is planned; half of it passes first.
        assertThat(Database.queryString(
                        Database.TEST_DATABASE,
                        "select planned_until - extend_at from meeting where id = '" + series + "'"))
                .isEqualTo("1 day 00:10:00");
        assertThat(Database.queryLong(
                        Database.TEST_DATABASE,
                        "select count(*) from meeting m where id = '" + series + "' and planned_until"
                                + " > (select max(send_at) from reminder where meeting_id = m.id)"))
                .isEqualTo(1);
        assertThat(Database.queryLong(
                        Database.TEST_DATABASE,
                        "select count(*) from meeting where id = '" + oneOff + "' and planned_until is null"
                                + " and extend_at is null"))
                .isEqualTo(1);
    }

    @Test
    void aSeriesWhoseNextOccurrenceIsDecadesAwayStaysDueForTheStep() {
        Instant first = Moments.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        // Every eleventh year, and a 29 February that is a Monday: 28 years apart at most.
        for (String rule : List.of("FREQ=YEARLY;INTERVAL=11", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO")) {
            String id = Api.create(meeting().startsAt(first).with("recurrence", rule))
                    .getString("id");

            assertThat(Database.queryLong(
                            Database.TEST_DATABASE,
                            "select count(*) from meeting where id = '" + id + "' and extend_at is not null"))
                    .as(rule)
                    .isEqualTo(1);
        }
    }

    @Test
    void listsAYearOfOccurrencesWithTheirReminders() {
        Instant first = Moments.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        String id = Api.create(meeting()
                        .startsAt(first)
                        .with("recurrence", "FREQ=WEEKLY")
                        .with(
                                "cancelledOccurrences",
                                List.of(first.plus(Duration.ofDays(14)).toString()))
                        .remindBefore("PT10M"))
                .getString("id");

        JsonPath page = given().queryParam("size", "100")
                .get("/meetings/" + id + "/occurrences")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(page.getInt("total")).isBetween(52, 53);
        List<Map<String, Object>> items = page.getList("items");
        assertThat(items.get(0))
                .containsEntry("occurrence", first.toString())
                .containsEntry("startsAt", first.toString())
                .containsEntry("status", "SCHEDULED");
        assertThat(page.getString("items[0].reminders[0].sendAt"))
                .isEqualTo(first.minus(Duration.ofMinutes(10)).toString());
        assertThat(items.get(2)).containsEntry("status", "CANCELLED");
        assertThat(page.getString("items[10].reminders[0].status")).isEqualTo("SCHEDULED");
    }

    @Test
    void listsAYearOfAnHourlySeriesAndRefusesAWindowOfMoreThan10000Occurrences() {
        String id = Api.create(meeting().with("recurrence", "FREQ=HOURLY")).getString("id");

        given().queryParam("size", "1")
                .get("/meetings/" + id + "/occurrences")
                .then()
                .statusCode(200)
                .body("total", org.hamcrest.Matchers.equalTo(366 * 24));
        given().queryParam("to", "9999-12-31T00:00:00Z")
                .queryParam("size", "1")
                .get("/meetings/" + id + "/occurrences")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("detail", org.hamcrest.Matchers.equalTo("The request breaks 1 rule(s)."))
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("to"));
    }

    @Test
    void listsAnEndlessSeriesUpToTheEndOfTheYear9999() {
        Instant first = Moments.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        String id = Api.create(meeting().startsAt(first).with("recurrence", "FREQ=DAILY"))
                .getString("id");

        JsonPath page = given().queryParam("from", "9999-12-20T00:00:00Z")
                .queryParam("size", "100")
                .get("/meetings/" + id + "/occurrences")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        List<String> occurrences = page.getList("items.occurrence");
        assertThat(occurrences).hasSize(12).allMatch(occurrence -> occurrence.startsWith("9999-12-"));
        assertThat(page.getInt("total")).isEqualTo(12);
    }

    @Test
    void listsTheOneOccurrenceOfAMeetingWithoutRecurrence() {
        JsonPath created = Api.create(meeting());

        given().get("/meetings/" + created.getString("id") + "/occurrences")
                .then()
                .statusCode(200)
                .body("total", org.hamcrest.Matchers.equalTo(1))
                .body("items[0].occurrence", org.hamcrest.Matchers.equalTo(created.getString("startsAt")));
    }

    @Test
    void plansTheRestOfTheHorizonWhenAPassWasLost() {
        Instant first = Moments.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        String id = Api.create(dailyFrom(first, "PT5M", "PT10M")).getString("id");
        List<Map<String, Object>> planned = Api.reminders(id);
        loseTheStepsPassAfter(id, first);
        assertThat(Api.reminders(id)).hasSize(2);
        dueForTheStep(id);

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(Api.reminders(id)).isEqualTo(planned));
        given().get("/meetings/" + id).then().body("version", org.hamcrest.Matchers.equalTo(0));
    }

    @Test
    void theStepPlansTheMovedOccurrencesOfManySeriesInOnePassAtTheirNewStarts() {
        Instant first = Moments.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        Instant second = first.plus(Duration.ofDays(1));
        Map<String, List<Map<String, Object>>> planned = new java.util.HashMap<>();
        for (int i = 0; i < 3; i++) {
            String id = Api.create(dailyFrom(first, "PT5M")).getString("id");
            given().contentType(io.restassured.http.ContentType.JSON)
                    .body(Map.of(
                            "startsAt", second.plus(Duration.ofHours(i + 1)).toString()))
                    .patch("/meetings/{id}/occurrences/{occurrence}", id, second.toString())
                    .then()
                    .statusCode(200);
            planned.put(id, scheduled(id));
            assertThat(planned.get(id))
                    .extracting(reminder -> reminder.get("sendAt"))
                    .contains(second.plus(Duration.ofHours(i + 1))
                            .minus(Duration.ofMinutes(5))
                            .toString());
        }
        planned.keySet().forEach(id -> {
            loseTheStepsPassAfter(id, first);
            dueForTheStep(id);
        });

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> planned.forEach(
                        (id, reminders) -> assertThat(scheduled(id)).isEqualTo(reminders)));
    }

    private static MeetingBody dailyFrom(Instant first, String... remindBefore) {
        return meeting().startsAt(first).with("recurrence", "FREQ=DAILY").remindBefore(remindBefore);
    }

    /** As if the step had planned only the first occurrence, and the replica had died before the rest. */
    private static void loseTheStepsPassAfter(String id, Instant first) {
        Database.execute(
                Database.TEST_DATABASE,
                "delete from reminder where meeting_id = '" + id + "' and send_at > '" + first + "';"
                        + " update meeting set planned_until = '" + first.plusMillis(1) + "' where id = '" + id + "'");
    }

    /**
     * The step's next pass for the series is due now. Kept apart from {@link #loseTheStepsPassAfter}: the step runs
     * each second, and a test that looks at what was lost must look before this.
     */
    private static void dueForTheStep(String id) {
        Database.execute(Database.TEST_DATABASE, "update meeting set extend_at = now() where id = '" + id + "'");
    }

    /** The meeting's reminders that are to be sent (a move leaves the old ones CANCELLED). */
    private static List<Map<String, Object>> scheduled(String id) {
        return Api.reminders(id).stream()
                .filter(reminder -> "SCHEDULED".equals(reminder.get("status")))
                .toList();
    }
}
