package com.meetingreminders.meeting;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.IcsText;
import com.meetingreminders.support.Problems;
import com.meetingreminders.support.RawHttp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Occurrences moved in a calendar: an event with the series' UID, a RECURRENCE-ID and its own DTSTART, as our export,
 * Google Calendar and Outlook write it, imports as a moved occurrence of the new meeting; a RECURRENCE-ID that cannot
 * mean one is a 400 naming it, and stores nothing.
 */
@QuarkusTest
class CalendarMovesTest {

    private static final String CALENDAR = CalendarTest.CALENDAR;
    private static final ZoneId PARIS = CalendarTest.PARIS;
    private static final ZoneId BERLIN = CalendarTest.BERLIN;

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void aSeriesWithAMovedAndACancelledOccurrenceComesBackFromItsExportWithTheSameOccurrences() {
        LocalDateTime first = CalendarTest.mondayInTwoWeeks().atTime(9, 0);
        String id = Api.create(meeting()
                        .title("Stand-up")
                        .startsAt(CalendarTest.instant(first, PARIS))
                        .timeZone("Europe/Paris")
                        .remindBefore("PT10M", "PT1H")
                        .with("recurrence", "FREQ=WEEKLY;BYDAY=MO;COUNT=10"))
                .getString("id");
        Instant second = CalendarTest.instant(first.plusWeeks(1), PARIS);
        Instant third = CalendarTest.instant(first.plusWeeks(2), PARIS);
        Instant movedTo = CalendarTest.instant(first.plusWeeks(1).plusDays(1).withHour(14), PARIS);
        given().contentType(ContentType.JSON)
                .body(Map.of("startsAt", movedTo.toString()))
                .patch("/meetings/{id}/occurrences/{occurrence}", id, second.toString())
                .then()
                .statusCode(200);
        given().delete("/meetings/{id}/occurrences/{occurrence}", id, third.toString())
                .then()
                .statusCode(204);

        String ics = given().accept(CALENDAR)
                .get("/meetings/" + id)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(ics.replace("\r\n ", ""))
                .contains(
                        "RECURRENCE-ID;TZID=Europe/Paris:" + IcsText.local(first.plusWeeks(1)),
                        "DTSTART;TZID=Europe/Paris:"
                                + IcsText.local(first.plusWeeks(1).plusDays(1).withHour(14)),
                        "EXDATE;TZID=Europe/Paris:" + IcsText.local(first.plusWeeks(2)));
        String copy = CalendarTest.postCalendar(ics.getBytes(StandardCharsets.UTF_8))
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        List<Map<String, Object>> original = occurrences(id);
        assertThat(occurrences(copy)).isEqualTo(original).hasSize(10);
        assertThat(original)
                .filteredOn("status", "MOVED")
                .extracting("occurrence", "startsAt")
                .containsExactly(org.assertj.core.groups.Tuple.tuple(second.toString(), movedTo.toString()));
        assertThat(original)
                .filteredOn("status", "CANCELLED")
                .extracting("occurrence")
                .containsExactly(third.toString());
    }

    @Test
    void importsAnOccurrenceMovedTheWayOutlookWritesIt() {
        LocalDateTime first = CalendarTest.mondayInTwoWeeks().plusDays(2).atTime(10, 0);
        LocalDateTime thirdMovedTo = first.plusWeeks(2).plusDays(1).withHour(11).withMinute(30);
        String uid = "040000008200E00074C5B7101A82E00800000000D0E1F2A3B4C5DB01000000000000000010000000F1E2D3C4";
        String zone = "DTSTART;TZID=\"W. Europe Standard Time\":";
        byte[] ics = IcsText.of(IcsText.lines(
                "BEGIN:VCALENDAR",
                "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN",
                "VERSION:2.0",
                "METHOD:PUBLISH",
                IcsText.OUTLOOK_WESTERN_EUROPE,
                "BEGIN:VEVENT",
                "CLASS:PUBLIC",
                "CREATED:20261120T080000Z",
                "DTEND;TZID=\"W. Europe Standard Time\":" + IcsText.local(first.plusHours(1)),
                "DTSTAMP:20261120T080000Z",
                zone + IcsText.local(first),
                "PRIORITY:5",
                "RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=WE",
                "SEQUENCE:0",
                "SUMMARY;LANGUAGE=de-de:Jour fixe",
                "TRANSP:OPAQUE",
                "UID:" + uid,
                "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
                "BEGIN:VALARM",
                "TRIGGER:-PT15M",
                "ACTION:DISPLAY",
                "DESCRIPTION:Reminder",
                "END:VALARM",
                "END:VEVENT",
                "BEGIN:VEVENT",
                "CLASS:PUBLIC",
                "CREATED:20261120T080000Z",
                "DTEND;TZID=\"W. Europe Standard Time\":" + IcsText.local(thirdMovedTo.plusHours(1)),
                "DTSTAMP:20261121T080000Z",
                zone + IcsText.local(thirdMovedTo),
                "PRIORITY:5",
                "RECURRENCE-ID;TZID=\"W. Europe Standard Time\":" + IcsText.local(first.plusWeeks(2)),
                "SEQUENCE:1",
                "SUMMARY;LANGUAGE=de-de:Jour fixe (Donnerstag)",
                "UID:" + uid,
                "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
                "END:VEVENT",
                "END:VCALENDAR"));

        String id =
                CalendarTest.postCalendar(ics).then().statusCode(201).extract().path("id");

        List<Map<String, Object>> listed = occurrences(id);
        assertThat(listed)
                .extracting("status")
                .containsExactly("SCHEDULED", "SCHEDULED", "MOVED", "SCHEDULED", "SCHEDULED", "SCHEDULED");
        assertThat(listed.get(2))
                .containsEntry(
                        "occurrence",
                        CalendarTest.instant(first.plusWeeks(2), BERLIN).toString())
                .containsEntry(
                        "startsAt", CalendarTest.instant(thirdMovedTo, BERLIN).toString());
        assertThat(listed.get(2).get("reminders"))
                .isEqualTo(List.of(Map.of(
                        "sendAt",
                        CalendarTest.instant(thirdMovedTo.minusMinutes(15), BERLIN)
                                .toString(),
                        "status",
                        "SCHEDULED")));
    }

    @Test
    void importsAMovedAndACancelledOccurrenceAndAnExceptionThatMovesNothingTheWayGoogleWritesThem() {
        LocalDateTime first = CalendarTest.mondayInTwoWeeks().atTime(9, 30);
        LocalDateTime secondMovedTo = first.plusWeeks(1).withHour(16);
        String uid = "7kq2m1v9s3d4f5g6h7j8k9l0@google.com";
        List<String> lines = new ArrayList<>(List.of(
                "BEGIN:VCALENDAR",
                "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
                "VERSION:2.0",
                "CALSCALE:GREGORIAN",
                "METHOD:PUBLISH",
                "BEGIN:VEVENT",
                "DTSTART;TZID=Europe/Paris:" + IcsText.local(first),
                "DTEND;TZID=Europe/Paris:" + IcsText.local(first.plusMinutes(15)),
                "RRULE:FREQ=WEEKLY;WKST=MO;COUNT=5;BYDAY=MO",
                "DTSTAMP:20261120T101500Z",
                "UID:" + uid,
                "SEQUENCE:0",
                "STATUS:CONFIRMED",
                "SUMMARY:Stand-up",
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                "DESCRIPTION:This is an event reminder",
                "TRIGGER:-P0DT0H10M0S",
                "END:VALARM",
                "END:VEVENT"));
        lines.addAll(exception(uid, first.plusWeeks(1), secondMovedTo, "CONFIRMED", "Stand-up (afternoon)"));
        lines.addAll(exception(uid, first.plusWeeks(2), first.plusWeeks(2), "CANCELLED", "Stand-up"));
        // Only the notes of the fourth changed: the same start, so nothing is moved.
        lines.addAll(exception(uid, first.plusWeeks(3), first.plusWeeks(3), "CONFIRMED", "Stand-up, with demo"));
        lines.add("END:VCALENDAR");

        String id = CalendarTest.postCalendar(IcsText.of(lines.toArray(String[]::new)))
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        List<Map<String, Object>> listed = occurrences(id);
        assertThat(listed)
                .extracting("status")
                .containsExactly("SCHEDULED", "MOVED", "CANCELLED", "SCHEDULED", "SCHEDULED");
        assertThat(listed.get(1))
                .containsEntry(
                        "startsAt", CalendarTest.instant(secondMovedTo, PARIS).toString());
    }

    @Test
    void anIdempotencyKeyTellsCalendarsThatMoveOtherOccurrencesApart() {
        LocalDateTime first = CalendarTest.mondayInTwoWeeks().atTime(9, 0);
        byte[] moved = series(
                "RRULE:FREQ=WEEKLY;COUNT=5",
                exception("s", first.plusWeeks(1), first.plusWeeks(1).withHour(15), "CONFIRMED", "x"));
        byte[] movedElsewhere = series(
                "RRULE:FREQ=WEEKLY;COUNT=5",
                exception("s", first.plusWeeks(1), first.plusWeeks(1).withHour(16), "CONFIRMED", "x"));
        String key = "moves-" + System.nanoTime();

        String id = withKey(key, moved).then().statusCode(201).extract().path("id");
        withKey(key, moved).then().statusCode(201).header("Idempotent-Replayed", "true");
        withKey(key, movedElsewhere).then().statusCode(422).contentType(Problems.MEDIA_TYPE);

        assertThat(occurrences(id))
                .extracting("status")
                .containsExactly("SCHEDULED", "MOVED", "SCHEDULED", "SCHEDULED", "SCHEDULED");
    }

    private static io.restassured.response.Response withKey(String key, byte[] ics) {
        return given().header("Idempotency-Key", key)
                .contentType(CALENDAR)
                .body(ics)
                .post("/meetings");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badExceptions")
    void refusesAnExceptionThatIsNoOccurrenceOfTheSeriesNamingWhatIsWrongAndStoresNothing(
            String name, byte[] ics, String field, String says) {
        long before = Database.countMeetings();

        RawHttp.Answer answer = RawHttp.send(
                RestAssured.baseURI + ":" + RestAssured.port, new RawHttp.Request("POST", "/meetings", CALENDAR, ics));

        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.contentType()).isEqualTo(Problems.MEDIA_TYPE);
        Problems.assertNoInternals(answer.body());
        JsonPath problem = JsonPath.from(answer.body());
        assertThat(problem.getList("errors.field", String.class))
                .as(answer.body())
                .containsExactly(field);
        assertThat(problem.getString("errors[0].message")).as(answer.body()).contains(says);
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    static Stream<Arguments> badExceptions() {
        LocalDateTime first = CalendarTest.mondayInTwoWeeks().atTime(9, 0);
        LocalDateTime later = first.plusWeeks(1).withHour(15);
        List<String> moved = exception("s", first.plusWeeks(1), later, "CONFIRMED", "Moved");
        return Stream.of(
                Arguments.of(
                        "not an occurrence of the rule",
                        series("RRULE:FREQ=WEEKLY;COUNT=5", exception("s", first.plusDays(1), later, "CONFIRMED", "x")),
                        "RECURRENCE-ID",
                        "not an occurrence of the RRULE"),
                Arguments.of(
                        "after the last occurrence",
                        series(
                                "RRULE:FREQ=WEEKLY;COUNT=5",
                                exception("s", first.plusWeeks(5), later, "CONFIRMED", "x")),
                        "RECURRENCE-ID",
                        "not an occurrence of the RRULE"),
                Arguments.of(
                        "another UID",
                        series(
                                "RRULE:FREQ=WEEKLY;COUNT=5",
                                exception("t", first.plusWeeks(1), later, "CONFIRMED", "x")),
                        "UID",
                        "the series' UID"),
                Arguments.of(
                        "the same occurrence twice",
                        series("RRULE:FREQ=WEEKLY;COUNT=5", concat(moved, moved)),
                        "RECURRENCE-ID",
                        "twice"),
                Arguments.of(
                        "moved and cancelled by EXDATE",
                        series(
                                "RRULE:FREQ=WEEKLY;COUNT=5\r\nEXDATE;TZID=Europe/Paris:"
                                        + IcsText.local(first.plusWeeks(1)),
                                moved),
                        "RECURRENCE-ID",
                        "EXDATE cancels"),
                Arguments.of("no rule", series("CLASS:PUBLIC", moved), "RECURRENCE-ID", "no RRULE"),
                Arguments.of(
                        "this and future",
                        series(
                                "RRULE:FREQ=WEEKLY;COUNT=5",
                                List.of(
                                        "BEGIN:VEVENT",
                                        "UID:s",
                                        "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Paris:"
                                                + IcsText.local(first.plusWeeks(1)),
                                        "DTSTART;TZID=Europe/Paris:" + IcsText.local(later),
                                        "SUMMARY:x",
                                        "END:VEVENT")),
                        "RECURRENCE-ID",
                        "THISANDFUTURE"),
                Arguments.of(
                        "no start of its own",
                        series(
                                "RRULE:FREQ=WEEKLY;COUNT=5",
                                List.of(
                                        "BEGIN:VEVENT",
                                        "UID:s",
                                        "RECURRENCE-ID;TZID=Europe/Paris:" + IcsText.local(first.plusWeeks(1)),
                                        "SUMMARY:x",
                                        "END:VEVENT")),
                        "DTSTART",
                        "RECURRENCE-ID"),
                Arguments.of(
                        "moved out of range",
                        series(
                                "RRULE:FREQ=WEEKLY;COUNT=5",
                                exception("s", first.plusWeeks(1), first.plusYears(11), "CONFIRMED", "x")),
                        "DTSTART",
                        "ten years"));
    }

    /** A weekly Monday 09:00 Europe/Paris series with UID s, the given rule line, then the given events. */
    private static byte[] series(String rule, List<String> events) {
        LocalDateTime first = CalendarTest.mondayInTwoWeeks().atTime(9, 0);
        List<String> lines = new ArrayList<>(List.of(
                "BEGIN:VCALENDAR",
                "VERSION:2.0",
                "PRODID:-//Tests//EN",
                "BEGIN:VEVENT",
                "UID:s",
                "DTSTART;TZID=Europe/Paris:" + IcsText.local(first),
                rule,
                "SUMMARY:Weekly",
                "END:VEVENT"));
        lines.addAll(events);
        lines.add("END:VCALENDAR");
        return IcsText.of(lines.toArray(String[]::new));
    }

    /** An event that changes one occurrence, as calendars write it: the UID, RECURRENCE-ID and the new DTSTART. */
    private static List<String> exception(
            String uid, LocalDateTime occurrence, LocalDateTime startsAt, String status, String summary) {
        return List.of(
                "BEGIN:VEVENT",
                "DTSTART;TZID=Europe/Paris:" + IcsText.local(startsAt),
                "DTEND;TZID=Europe/Paris:" + IcsText.local(startsAt.plusMinutes(15)),
                "DTSTAMP:20261121T101500Z",
                "UID:" + uid,
                "RECURRENCE-ID;TZID=Europe/Paris:" + IcsText.local(occurrence),
                "SEQUENCE:1",
                "STATUS:" + status,
                "SUMMARY:" + summary,
                "END:VEVENT");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    /**
     * Every occurrence with what a calendar carries: its identity, where it is, its status, and the reminders it will
     * send (those a change cancelled before the export are no part of the series any more).
     */
    static List<Map<String, Object>> occurrences(String id) {
        List<Map<String, Object>> items = given().queryParam("size", "100")
                .get("/meetings/" + id + "/occurrences")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        return items.stream()
                .map(item -> {
                    Map<String, Object> kept = new LinkedHashMap<>(item);
                    @SuppressWarnings("unchecked")
                    List<Map<String, Object>> reminders = (List<Map<String, Object>>) item.get("reminders");
                    kept.put(
                            "reminders",
                            reminders.stream()
                                    .filter(reminder -> !"CANCELLED".equals(reminder.get("status")))
                                    .toList());
                    return kept;
                })
                .toList();
    }
}
