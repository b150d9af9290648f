package com.meetingreminders.meeting;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.IcsText;
import com.meetingreminders.support.Problems;
import com.meetingreminders.support.RawHttp;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * iCalendar in and out: calendars written the way Google Calendar, Outlook and Apple Calendar write them become the
 * meetings the JSON form would make, a meeting goes out as a VCALENDAR and comes back as the same series, and what the
 * service cannot read is a 400 that stores nothing.
 */
@QuarkusTest
class CalendarTest {

    static final String CALENDAR = "text/calendar";
    static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void importsAWeeklySeriesWrittenTheWayGoogleCalendarWritesIt() {
        LocalDateTime first = mondayInTwoWeeks().atTime(9, 30);
        byte[] ics = IcsText.of(
                "BEGIN:VCALENDAR",
                "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
                "VERSION:2.0",
                "CALSCALE:GREGORIAN",
                "METHOD:PUBLISH",
                "X-WR-CALNAME:Team",
                "X-WR-TIMEZONE:Europe/Paris",
                "BEGIN:VTIMEZONE",
                "TZID:Europe/Paris",
                "X-LIC-LOCATION:Europe/Paris",
                "BEGIN:DAYLIGHT",
                "TZOFFSETFROM:+0100",
                "TZOFFSETTO:+0200",
                "TZNAME:CEST",
                "DTSTART:19700329T020000",
                "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
                "END:DAYLIGHT",
                "BEGIN:STANDARD",
                "TZOFFSETFROM:+0200",
                "TZOFFSETTO:+0100",
                "TZNAME:CET",
                "DTSTART:19701025T030000",
                "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
                "END:STANDARD",
                "END:VTIMEZONE",
                "BEGIN:VEVENT",
                "DTSTART;TZID=Europe/Paris:" + IcsText.local(first),
                "DTEND;TZID=Europe/Paris:" + IcsText.local(first.plusMinutes(15)),
                "RRULE:FREQ=WEEKLY;WKST=MO;COUNT=8;BYDAY=MO",
                "EXDATE;TZID=Europe/Paris:" + IcsText.local(first.plusWeeks(3)),
                "DTSTAMP:20261120T101500Z",
                "ORGANIZER;CN=Ana Ruiz:mailto:ana.ruiz@example.com",
                "UID:5q0kbm3v2r1hjc8d7ffm2k6e0s@google.com",
                "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Ana Ruiz;X-NUM-GUESTS=0:mailto:"
                        + "ana.ruiz@example.com",
                "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=Li Wei;"
                        + "X-NUM-GUESTS=0:mailto:li.wei@example.com",
                "CREATED:20261120T101200Z",
                "DESCRIPTION:Fifteen minutes\\, standing.",
                "LAST-MODIFIED:20261120T101500Z",
                "LOCATION:",
                "SEQUENCE:0",
                "STATUS:CONFIRMED",
                "SUMMARY:Stand-up",
                "TRANSP:OPAQUE",
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                "DESCRIPTION:This is an event reminder",
                "TRIGGER:-P0DT0H10M0S",
                "END:VALARM",
                "END:VEVENT",
                "END:VCALENDAR");

        Response created = postCalendar(ics);

        created.then().statusCode(201).header("Location", endsWith("/meetings/" + created.path("id")));
        JsonPath meeting = created.jsonPath();
        assertThat(meeting.getString("title")).isEqualTo("Stand-up");
        assertThat(meeting.getString("startsAt"))
                .isEqualTo(instant(first, PARIS).toString());
        assertThat(meeting.getString("timeZone")).isEqualTo("Europe/Paris");
        assertThat(meeting.getString("recurrence")).contains("FREQ=WEEKLY", "COUNT=8", "BYDAY=MO");
        assertThat(meeting.getList("cancelledOccurrences", String.class))
                .containsExactly(instant(first.plusWeeks(3), PARIS).toString());
        assertThat(meeting.getList("remindBefore", String.class)).containsExactly("PT10M");
        assertThat(meeting.getList("attendees", String.class))
                .containsExactly("ana.ruiz@example.com", "li.wei@example.com");
    }

    @Test
    void importsLeaveNoZoneRulesBehindInTheJvm() {
        LocalDateTime start = mondayInTwoWeeks().atTime(11, 0);
        String rule = "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU";
        // The first may have ical4j load its own rules for Paris, once for the JVM.
        postCalendar(withTimeZone(start, rule, "19701025T030000")).then().statusCode(201);
        long zones = ical4jZoneIds();

        postCalendar(withTimeZone(start.plusHours(1), rule, "19701025T030000"))
                .then()
                .statusCode(201);
        postCalendar(withTimeZone(start.plusHours(2), rule, "19701025T030000"))
                .then()
                .statusCode(201);

        // ical4j's builder made zone rules of each VTIMEZONE and registered them with the JDK, for good, per import.
        assertThat(ical4jZoneIds()).isEqualTo(zones);
    }

    private static long ical4jZoneIds() {
        return ZoneId.getAvailableZoneIds().stream()
                .filter(id -> id.startsWith("ical4j"))
                .count();
    }

    @Test
    void aTimeZoneDefinitionThatChangesEverySecondSince1601CostsNothing() {
        LocalDateTime start = mondayInTwoWeeks().atTime(11, 30);

        // Zone rules made of it would list some 13 billion onsets; the service reads the TZID by its name alone.
        postCalendar(withTimeZone(start, "RRULE:FREQ=SECONDLY", "16010101T000000"))
                .then()
                .statusCode(201)
                .body("timeZone", org.hamcrest.Matchers.equalTo("Europe/Paris"))
                .body(
                        "startsAt",
                        org.hamcrest.Matchers.equalTo(instant(start, PARIS).toString()));
    }

    @Test
    void importsAnOutlookEventWithAWindowsZoneFoldedLinesAndMicrosoftProperties() {
        LocalDateTime start = mondayInTwoWeeks().plusDays(2).atTime(14, 0);
        String title = "Quartalsübersicht Vertrieb und Marketing – Zahlen, Ziele und nächste Schritte für Q1";
        byte[] ics = IcsText.of(IcsText.lines(
                "BEGIN:VCALENDAR",
                "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN",
                "VERSION:2.0",
                "METHOD:REQUEST",
                "X-MS-OLK-FORCEINSPECTOROPEN:TRUE",
                IcsText.OUTLOOK_WESTERN_EUROPE,
                "BEGIN:VEVENT",
                "ATTENDEE;CN=\"Bernd Müller\";RSVP=TRUE;ROLE=REQ-PARTICIPANT:mailto:bernd.mueller@vertrieb.example.com",
                "CLASS:PUBLIC",
                "CREATED:20261120T080000Z",
                "DESCRIPTION:Bitte die Zahlen vorher ansehen.\\n\\nDanke!\\n",
                "DTEND;TZID=\"W. Europe Standard Time\":" + IcsText.local(start.plusHours(1)),
                "DTSTAMP:20261120T080000Z",
                "DTSTART;TZID=\"W. Europe Standard Time\":" + IcsText.local(start),
                "LAST-MODIFIED:20261120T080000Z",
                "ORGANIZER;CN=\"Clara Schmidt\":mailto:clara.schmidt@vertrieb.example.com",
                "PRIORITY:5",
                "SEQUENCE:0",
                "SUMMARY;LANGUAGE=de-de:" + title,
                "TRANSP:OPAQUE",
                "UID:040000008200E00074C5B7101A82E00800000000B0C5F2B1C35BDB01000000000000000010000000A1B2C3D4E5F6",
                "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
                "X-MICROSOFT-CDO-IMPORTANCE:1",
                "X-MICROSOFT-DISALLOW-COUNTER:FALSE",
                "X-MS-OLK-AUTOFILLLOCATION:FALSE",
                "X-MS-OLK-CONFTYPE:0",
                "BEGIN:VALARM",
                "TRIGGER:-PT15M",
                "ACTION:DISPLAY",
                "DESCRIPTION:Reminder",
                "END:VALARM",
                "END:VEVENT",
                "END:VCALENDAR"));
        assertThat(new String(ics, StandardCharsets.UTF_8)).contains("\r\n ");

        JsonPath meeting = postCalendar(ics).then().statusCode(201).extract().jsonPath();

        assertThat(meeting.getString("title")).isEqualTo(title);
        assertThat(meeting.getString("timeZone")).isEqualTo("Europe/Berlin");
        assertThat(meeting.getString("startsAt"))
                .isEqualTo(instant(start, BERLIN).toString());
        assertThat(meeting.getList("remindBefore", String.class)).containsExactly("PT15M");
        assertThat(meeting.getList("attendees", String.class)).containsExactly("bernd.mueller@vertrieb.example.com");
        assertThat(meeting.getString("recurrence")).isNull();
    }

    @Test
    void importsAnAppleCalendarEventInUtcWithAlarmsRelatedToTheStart() {
        Instant start = Instant.now().plus(Duration.ofDays(9)).truncatedTo(ChronoUnit.HOURS);
        byte[] ics = IcsText.of(
                "BEGIN:VCALENDAR",
                "VERSION:2.0",
                "PRODID:-//Apple Inc.//macOS 15.1//EN",
                "CALSCALE:GREGORIAN",
                "BEGIN:VEVENT",
                "CREATED:20261120T091500Z",
                "DTEND:" + IcsText.utc(start.plus(Duration.ofMinutes(45))),
                "DTSTAMP:20261120T091512Z",
                "DTSTART:" + IcsText.utc(start),
                "LAST-MODIFIED:20261120T091512Z",
                "SEQUENCE:0",
                "SUMMARY:Design review",
                "TRANSP:OPAQUE",
                "UID:8C3E1F0A-6B2D-4E57-9A41-2F7D0C9B8E13",
                "URL;VALUE=URI:",
                "X-APPLE-CREATOR-IDENTITY:com.apple.calendar",
                "X-APPLE-CREATOR-TEAM-IDENTITY:0000000000",
                "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC",
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                "DESCRIPTION:Reminder",
                "TRIGGER;RELATED=START:-PT15M",
                "UID:3A7D2C11-0F4B-4C0E-8D6A-5B9E1F2A3C4D",
                "X-APPLE-DEFAULT-ALARM:TRUE",
                "X-WR-ALARMUID:3A7D2C11-0F4B-4C0E-8D6A-5B9E1F2A3C4D",
                "END:VALARM",
                "BEGIN:VALARM",
                "ACTION:AUDIO",
                "ATTACH;VALUE=URI:Chord",
                "TRIGGER;VALUE=DURATION:-P1D",
                "UID:6E0B9D24-7C1A-4F3E-B25D-8A4C6E1F9D07",
                "X-WR-ALARMUID:6E0B9D24-7C1A-4F3E-B25D-8A4C6E1F9D07",
                "END:VALARM",
                "END:VEVENT",
                "END:VCALENDAR");

        JsonPath meeting = postCalendar(ics).then().statusCode(201).extract().jsonPath();

        assertThat(meeting.getString("startsAt")).isEqualTo(start.toString());
        assertThat(meeting.getString("timeZone")).isEqualTo("UTC");
        assertThat(meeting.getList("remindBefore", String.class)).containsExactly("PT15M", "PT24H");
        assertThat(meeting.getList("reminders.sendAt", String.class))
                .containsExactly(
                        start.minus(Duration.ofDays(1)).toString(),
                        start.minus(Duration.ofMinutes(15)).toString());
    }

    @Test
    void exportsAWeeklySeriesThatImportsBackWithTheSameOccurrencesAndReminders() {
        LocalDateTime first = mondayInTwoWeeks().atTime(9, 0);
        JsonPath original = Api.create(meeting()
                .title("Weekly review, with notes; and more")
                .startsAt(instant(first, PARIS))
                .timeZone("Europe/Paris")
                .remindBefore("PT10M", "P1D")
                .attendees("ana.ruiz@example.com", "li.wei@example.com")
                .with("recurrence", "FREQ=WEEKLY;BYDAY=MO;COUNT=30")
                .with(
                        "cancelledOccurrences",
                        List.of(instant(first.plusWeeks(2), PARIS).toString())));
        String id = original.getString("id");

        String ics = exported(id);

        assertThat(unfolded(ics))
                .contains(
                        "BEGIN:VCALENDAR",
                        "VERSION:2.0",
                        "PRODID:",
                        "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris",
                        "UID:" + id,
                        "DTSTAMP:",
                        "SUMMARY:Weekly review\\, with notes\\; and more",
                        "DTSTART;TZID=Europe/Paris:" + IcsText.local(first),
                        "RRULE:FREQ=WEEKLY;",
                        "EXDATE;TZID=Europe/Paris:" + IcsText.local(first.plusWeeks(2)),
                        "ATTENDEE:mailto:ana.ruiz@example.com",
                        "TRIGGER:-PT10M",
                        "ACTION:DISPLAY")
                .doesNotContain("RECURRENCE-ID");
        assertThat(ics.split("\r\n")).allSatisfy(line -> assertThat(line.getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(75));

        JsonPath copy = postCalendar(ics.getBytes(StandardCharsets.UTF_8))
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();

        assertThat(copy.getString("id")).isNotEqualTo(id);
        for (String field :
                List.of("title", "startsAt", "timeZone", "remindBefore", "attendees", "cancelledOccurrences")) {
            assertThat(copy.getString(field)).as(field).isEqualTo(original.getString(field));
        }
        // The same rule, its parts perhaps in another order.
        assertThat(copy.getString("recurrence").split(";"))
                .containsExactlyInAnyOrder(original.getString("recurrence").split(";"));
        // Thirty Mondays across the change to summer time, the cancelled one listed as such.
        assertThat(occurrences(copy.getString("id")))
                .isEqualTo(occurrences(id))
                .hasSize(30)
                .filteredOn("status", "CANCELLED")
                .extracting("occurrence")
                .containsExactly(instant(first.plusWeeks(2), PARIS).toString());
    }

    @Test
    void answersJsonWhenAskedForJsonOrForNothingInParticular() {
        String id = Api.create(meeting()).getString("id");

        given().accept("application/json")
                .get("/meetings/" + id)
                .then()
                .statusCode(200)
                .contentType("application/json")
                .header("Vary", "Accept");
        RawHttp.Answer plain = RawHttp.send(baseUrl(), new RawHttp.Request("GET", "/meetings/" + id, null, null));
        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.contentType()).isEqualTo("application/json");
    }

    @ParameterizedTest(name = "Accept: {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "text/calendar;q=0, */* | application/json",
                "application/json;q=0, */* | text/calendar",
                "application/*;q=0, text/* | text/calendar",
                "text/calendar;q=0.5, application/json;q=0.9 | application/json",
                "text/calendar;q=0.9, application/json;q=0.5 | text/calendar",
                "application/json; charset=utf-8 | application/json",
                "text/calendar; charset=utf-8 | text/calendar",
                "text/calendar;q=0.8;x=1, application/json;q=0.5 | text/calendar",
                "*/*;q= | application/json",
                "application/json;charset= | application/json",
                "text/calendar;level | text/calendar",
                "text/calendar;q=abc | text/calendar",
                "text/calendar;q=2 | text/calendar",
                "application/json;q=0, text/calendar;q=abc | text/calendar",
                "application/json;q=0.5, text/calendar;q=2 | text/calendar",
                "text/calendar, */*;q= | application/json",
                "*/calendar, application/json;q=0.1 | application/json",
                "application/json;q=0.1, application/json;q=0.9, text/calendar;q=0.5 | application/json",
            })
    void answersInTheTypeAcceptRanksHighest(String accept, String answered) {
        String id = Api.create(meeting()).getString("id");

        io.restassured.response.Response answer =
                given().header("Accept", accept).get("/meetings/" + id);

        answer.then().statusCode(200).contentType(answered);
        assertThat(answer.headers().getValues("Vary")).containsExactly("Accept");
    }

    @ParameterizedTest(name = "Accept: {0}")
    @ValueSource(
            strings = {
                "text/calendar;q=0",
                "application/json;q=0, text/calendar;q=0",
                "*/*;q=0",
                "text",
                "text/calendar/x"
            })
    void refusesWhenAcceptRulesOutEveryType(String accept) {
        String id = Api.create(meeting()).getString("id");

        given().header("Accept", accept)
                .get("/meetings/" + id)
                .then()
                .statusCode(406)
                .contentType(Problems.MEDIA_TYPE)
                .body("status", org.hamcrest.Matchers.equalTo(406));
    }

    @Test
    void foldsAnExportBetweenCharactersAndImportsItBackWhole() {
        String title = "\uD83D\uDCC5".repeat(40) + " caf\u00e9".repeat(20);
        String id = Api.create(meeting().title(title)).getString("id");

        byte[] ics = given().accept(CALENDAR)
                .get("/meetings/" + id)
                .then()
                .statusCode(200)
                .extract()
                .asByteArray();

        assertThat(new String(ics, StandardCharsets.UTF_8).split("\r\n"))
                .allSatisfy(line ->
                        assertThat(line.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(75));
        postCalendar(ics).then().statusCode(201).body("title", org.hamcrest.Matchers.equalTo(title));
    }

    @Test
    void exportsOnlyTheCallersOwnMeeting() {
        String id = Api.create(meeting()).getString("id");

        given().header("Authorization", Tokens.bearer("mallory"))
                .accept(CALENDAR)
                .get("/meetings/" + id)
                .then()
                .statusCode(404)
                .contentType(Problems.MEDIA_TYPE);
    }

    @Test
    void replaysAnImportSentAgainWithTheSameIdempotencyKey() {
        byte[] ics = oneEvent("DTSTART:" + IcsText.utc(inAWeek()), "SUMMARY:Once");
        String key = "calendar-" + System.nanoTime();

        String first = postCalendar(ics, key).then().statusCode(201).extract().path("id");
        Response again = postCalendar(ics, key);

        again.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(again.<String>path("id")).isEqualTo(first);
    }

    @Test
    void readsTheBodyAsUtf8WhateverCharsetItsLabelNames() {
        byte[] utf8 = oneEvent("DTSTART:" + IcsText.utc(inAWeek()), "SUMMARY:Caf\u00e9");

        // Java clients label text ISO-8859-1 unless told otherwise, and send UTF-8 all the same.
        for (String charset : List.of("utf-8", "\"UTF-8\"", "ISO-8859-1")) {
            RawHttp.Answer created = RawHttp.send(
                    baseUrl(), new RawHttp.Request("POST", "/meetings", CALENDAR + "; charset=" + charset, utf8));
            assertThat(created.status()).as(charset + ": " + created.body()).isEqualTo(201);
            assertThat(JsonPath.from(created.body()).getString("title")).isEqualTo("Caf\u00e9");
        }
        long before = Database.countMeetings();
        RawHttp.Answer latin1 = RawHttp.send(
                baseUrl(), new RawHttp.Request("POST", "/meetings", CALENDAR + "; charset=ISO-8859-1", latin1(utf8)));
        assertThat(latin1.status()).as(latin1.body()).isEqualTo(400);
        assertThat(JsonPath.from(latin1.body()).getString("errors[0].message")).isEqualTo("must be UTF-8");
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void refusesACalendarOverTheBodyLimitAsTheJsonFormDoes() {
        String description = "DESCRIPTION:" + "x".repeat(70 * 1024);
        long before = Database.countMeetings();

        postCalendar(oneEvent("DTSTART:" + IcsText.utc(inAWeek()), "SUMMARY:Big", description))
                .then()
                .statusCode(413)
                .contentType(Problems.MEDIA_TYPE);
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void refusesACalendarItCannotReadWithAProblemNamingWhatAndStoresNothing(String name, byte[] ics, String field) {
        long before = Database.countMeetings();

        RawHttp.Answer answer = RawHttp.send(baseUrl(), new RawHttp.Request("POST", "/meetings", CALENDAR, ics));

        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.contentType()).isEqualTo(Problems.MEDIA_TYPE);
        Problems.assertNoInternals(answer.body());
        assertThat(JsonPath.from(answer.body()).getList("errors.field", String.class))
                .as(answer.body())
                .contains(field);
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    static Stream<Arguments> unreadable() {
        String start = "DTSTART:" + IcsText.utc(inAWeek());
        String title = "SUMMARY:Refused";
        return Stream.of(
                Arguments.of("not iCalendar", "{\"title\":\"x\"}".getBytes(StandardCharsets.UTF_8), "body"),
                Arguments.of("no VEVENT", IcsText.of("BEGIN:VCALENDAR", "VERSION:2.0", "END:VCALENDAR"), "VEVENT"),
                Arguments.of("two unrelated events", twoEvents(start), "VEVENT"),
                Arguments.of("two calendars", twoCalendars(start), "VCALENDAR"),
                Arguments.of("trigger after the start", oneEvent(start, title, alarm("TRIGGER:PT5M")), "TRIGGER"),
                Arguments.of(
                        "trigger related to the end",
                        oneEvent(start, title, alarm("TRIGGER;RELATED=END:-PT5M")),
                        "TRIGGER"),
                Arguments.of(
                        "absolute trigger",
                        oneEvent(start, title, alarm("TRIGGER;VALUE=DATE-TIME:20270101T080000Z")),
                        "TRIGGER"),
                Arguments.of(
                        "unknown TZID", oneEvent("DTSTART;TZID=Mars/Olympus_Mons:20271104T090000", title), "DTSTART"),
                Arguments.of("all-day start", oneEvent("DTSTART;VALUE=DATE:20271104", title), "DTSTART"),
                Arguments.of("floating start", oneEvent("DTSTART:20271104T090000", title), "DTSTART"),
                Arguments.of("no start", oneEvent(title), "DTSTART"),
                Arguments.of("a cancelled event", oneEvent(start, title, "STATUS:CANCELLED"), "STATUS"),
                Arguments.of(
                        "a cancelled series",
                        oneEvent(start, title, "RRULE:FREQ=WEEKLY", "STATUS:cancelled"),
                        "STATUS"),
                Arguments.of("a control character", oneEvent(start, "SUMMARY:Bell\u0007"), "body"),
                Arguments.of("not UTF-8", latin1(oneEvent(start, "SUMMARY:Caf\u00e9")), "body"),
                Arguments.of("nested too deep", deeplyNested(start), "body"),
                Arguments.of("a garbled trigger", oneEvent(start, title, alarm("TRIGGER:soon")), "TRIGGER"),
                Arguments.of("a garbled start", oneEvent("DTSTART;TZID=Europe/Paris:tomorrow", title), "DTSTART"),
                Arguments.of("a garbled exception", oneEvent(start, title, "EXDATE:20271104T0900Z"), "EXDATE"),
                // ical4j reads these as 28 February and gives back only what it read.
                Arguments.of("a start on 30 February", oneEvent("DTSTART:20270230T090000Z", title), "DTSTART"),
                Arguments.of(
                        "a start on 30 February in a zone",
                        oneEvent("DTSTART;TZID=Europe/Paris:20270230T090000", title),
                        "DTSTART"),
                Arguments.of(
                        "an exception on 30 February",
                        oneEvent(
                                start,
                                title,
                                "RRULE:FREQ=DAILY",
                                "EXDATE:" + IcsText.utc(inAWeek()) + ",20280230T090000Z"),
                        "EXDATE"),
                Arguments.of("a garbled rule", oneEvent(start, title, "RRULE:EVERY=MONDAY"), "RRULE"),
                Arguments.of("an empty attendee", oneEvent(start, title, "ATTENDEE:mailto:"), "ATTENDEE"),
                Arguments.of("extra dates", oneEvent(start, title, "RDATE:20271201T090000Z"), "RDATE"),
                Arguments.of("minutely rule", oneEvent(start, title, "RRULE:FREQ=MINUTELY"), "recurrence"),
                Arguments.of("no summary", oneEvent(start), "title"),
                Arguments.of("a start in the past", oneEvent("DTSTART:20200101T090000Z", title), "startsAt"),
                Arguments.of(
                        "an attendee that is no address", oneEvent(start, title, "ATTENDEE:urn:uuid:1"), "ATTENDEE"));
    }

    private static byte[] oneEvent(String... properties) {
        return IcsText.of(Stream.of(
                        Stream.of("BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN", "BEGIN:VEVENT", "UID:one"),
                        Stream.of(properties),
                        Stream.of("END:VEVENT", "END:VCALENDAR"))
                .flatMap(lines -> lines)
                .toArray(String[]::new));
    }

    private static String alarm(String trigger) {
        return "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\n" + trigger + "\r\nEND:VALARM";
    }

    /** One event in Paris time, after a VTIMEZONE for Paris whose standard time follows this rule from this start. */
    private static byte[] withTimeZone(LocalDateTime start, String rule, String ruleStart) {
        return IcsText.of(
                "BEGIN:VCALENDAR",
                "VERSION:2.0",
                "PRODID:-//Tests//EN",
                "BEGIN:VTIMEZONE",
                "TZID:Europe/Paris",
                "BEGIN:STANDARD",
                "DTSTART:" + ruleStart,
                "TZOFFSETFROM:+0200",
                "TZOFFSETTO:+0100",
                rule,
                "END:STANDARD",
                "END:VTIMEZONE",
                "BEGIN:VEVENT",
                "UID:zone-" + start,
                "DTSTART;TZID=Europe/Paris:" + IcsText.local(start),
                "SUMMARY:In Paris",
                "END:VEVENT",
                "END:VCALENDAR");
    }

    private static byte[] twoCalendars(String start) {
        return IcsText.of(IcsText.lines(
                "BEGIN:VCALENDAR",
                "VERSION:2.0",
                event("first", start),
                "END:VCALENDAR",
                "BEGIN:VCALENDAR",
                "VERSION:2.0",
                event("second", start),
                "END:VCALENDAR"));
    }

    private static byte[] twoEvents(String start) {
        return IcsText.of(
                IcsText.lines("BEGIN:VCALENDAR", "VERSION:2.0", event("a", start), event("b", start), "END:VCALENDAR"));
    }

    /** An event of its own UID, titled by it. */
    private static List<String> event(String uid, String start) {
        return List.of("BEGIN:VEVENT", "UID:" + uid, start, "SUMMARY:" + uid, "END:VEVENT");
    }

    private static byte[] deeplyNested(String start) {
        StringBuilder nested = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            nested.append("BEGIN:X-DEEP\r\n");
        }
        for (int i = 0; i < 2_000; i++) {
            nested.append("END:X-DEEP\r\n");
        }
        return IcsText.of(
                "BEGIN:VCALENDAR",
                "VERSION:2.0",
                "BEGIN:VEVENT",
                "UID:d",
                start,
                "SUMMARY:Deep",
                nested.toString().strip(),
                "END:VEVENT",
                "END:VCALENDAR");
    }

    private static byte[] latin1(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8).getBytes(StandardCharsets.ISO_8859_1);
    }

    static Response postCalendar(byte[] ics) {
        return given().contentType(CALENDAR).body(ics).post("/meetings");
    }

    private static Response postCalendar(byte[] ics, String idempotencyKey) {
        return given().header("Idempotency-Key", idempotencyKey)
                .contentType(CALENDAR)
                .body(ics)
                .post("/meetings");
    }

    private static String exported(String id) {
        return given().accept(CALENDAR)
                .get("/meetings/" + id)
                .then()
                .statusCode(200)
                .contentType(CALENDAR)
                .header("ETag", "\"0\"")
                .header("Vary", "Accept")
                .extract()
                .asString();
    }

    private static List<Map<String, Object>> occurrences(String id) {
        return given().queryParam("size", "100")
                .get("/meetings/" + id + "/occurrences")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    private static String unfolded(String ics) {
        return ics.replace("\r\n ", "");
    }

    static LocalDate mondayInTwoWeeks() {
        return LocalDate.now(PARIS).plusWeeks(2).with(TemporalAdjusters.next(DayOfWeek.MONDAY));
    }

    private static Instant inAWeek() {
        return Instant.now().plus(Duration.ofDays(7)).truncatedTo(ChronoUnit.HOURS);
    }

    static Instant instant(LocalDateTime local, ZoneId zone) {
        return ZonedDateTime.of(local, zone).toInstant();
    }

    private static String baseUrl() {
        return RestAssured.baseURI + ":" + RestAssured.port;
    }
}
