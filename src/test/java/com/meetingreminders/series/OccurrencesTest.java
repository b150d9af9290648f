package com.meetingreminders.series;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Expansion on the wall clock, across daylight-saving changes; no Quarkus, no database. */
class OccurrencesTest {

    private static final Instant FAR = Instant.parse("2040-01-01T00:00:00Z");

    @Test
    void keepsAWeeklyParisMeetingAtNineLocalAcrossBoth2027Changes() {
        List<Instant> mondays = expand("FREQ=WEEKLY;BYDAY=MO", "2027-03-22T09:00", "Europe/Paris", 3);
        assertThat(mondays)
                .containsExactly(
                        Instant.parse("2027-03-22T08:00:00Z"), // CET, +01:00
                        Instant.parse("2027-03-29T07:00:00Z"), // CEST from 28 March, +02:00
                        Instant.parse("2027-04-05T07:00:00Z"));
        List<Instant> autumn = expand("FREQ=WEEKLY;BYDAY=MO", "2027-10-25T09:00", "Europe/Paris", 2);
        // Clocks go back on 31 October 2027.
        assertThat(autumn)
                .containsExactly(Instant.parse("2027-10-25T07:00:00Z"), Instant.parse("2027-11-01T08:00:00Z"));
        assertThat(autumn)
                .allSatisfy(
                        at -> assertThat(localIn(at, "Europe/Paris").getHour()).isEqualTo(9));
    }

    @Test
    void keepsANewYorkMeetingAtItsLocalTimeWhenClocksSpringForward() {
        List<Instant> days = expand("FREQ=DAILY", "2027-03-13T08:30", "America/New_York", 2);
        // 14 March 2027: EST (-05:00) becomes EDT (-04:00).
        assertThat(days).containsExactly(Instant.parse("2027-03-13T13:30:00Z"), Instant.parse("2027-03-14T12:30:00Z"));
    }

    @Test
    void followsLordHowesHalfHourShift() {
        // Lord Howe moves between +10:30 and +11:00; on 4 April 2027 it goes back half an hour.
        List<Instant> days = expand("FREQ=DAILY", "2027-04-03T09:00", "Australia/Lord_Howe", 2);
        assertThat(days).containsExactly(Instant.parse("2027-04-02T22:00:00Z"), Instant.parse("2027-04-03T22:30:00Z"));
    }

    @Test
    void movesADailyMeetingInTheSpringForwardGapForwardByTheGap() {
        // 28 March 2027, Berlin: 02:00 becomes 03:00, so 02:30 does not exist that day; it is held at 03:30.
        List<Instant> days = expand("FREQ=DAILY", "2027-03-27T02:30", "Europe/Berlin", 3);
        assertThat(days)
                .containsExactly(
                        Instant.parse("2027-03-27T01:30:00Z"),
                        Instant.parse("2027-03-28T01:30:00Z"),
                        Instant.parse("2027-03-29T00:30:00Z"));
        assertThat(localIn(days.get(1), "Europe/Berlin")).isEqualTo(LocalDateTime.parse("2027-03-28T03:30"));
    }

    @Test
    void takesTheEarlierOffsetForATimeThatHappensTwice() {
        // 31 October 2027, Berlin: 02:30 happens at +02:00 and again at +01:00.
        List<Instant> days = expand("FREQ=DAILY", "2027-10-30T02:30", "Europe/Berlin", 2);
        assertThat(days.get(1)).isEqualTo(Instant.parse("2027-10-31T00:30:00Z"));
    }

    @Test
    void skipsMonthsWithoutA31st() {
        List<Instant> months = expand("FREQ=MONTHLY;BYMONTHDAY=31", "2027-01-31T10:00", "UTC", 4);
        assertThat(months)
                .containsExactly(
                        Instant.parse("2027-01-31T10:00:00Z"),
                        Instant.parse("2027-03-31T10:00:00Z"),
                        Instant.parse("2027-05-31T10:00:00Z"),
                        Instant.parse("2027-07-31T10:00:00Z"));
    }

    @Test
    void takesTheLastDayOfEachMonthWithMinusOne() {
        List<Instant> months = expand("FREQ=MONTHLY;BYMONTHDAY=-1", "2027-01-31T10:00", "UTC", 3);
        assertThat(months)
                .containsExactly(
                        Instant.parse("2027-01-31T10:00:00Z"),
                        Instant.parse("2027-02-28T10:00:00Z"),
                        Instant.parse("2027-03-31T10:00:00Z"));
    }

    @Test
    void takesTheLastFridayWithAnOrdinal() {
        List<Instant> months = expand("FREQ=MONTHLY;BYDAY=-1FR", "2027-01-29T10:00", "UTC", 2);
        assertThat(months)
                .containsExactly(Instant.parse("2027-01-29T10:00:00Z"), Instant.parse("2027-02-26T10:00:00Z"));
    }

    @Test
    void takesTheLastWorkdayWithBySetPos() {
        List<Instant> months =
                expand("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;WKST=MO", "2027-01-29T10:00", "UTC", 3);
        assertThat(months)
                .containsExactly(
                        Instant.parse("2027-01-29T10:00:00Z"),
                        Instant.parse("2027-02-26T10:00:00Z"),
                        Instant.parse("2027-03-31T10:00:00Z"));
    }

    @Test
    void repeatsAFebruary29thOnlyInLeapYears() {
        List<Instant> years = expand("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "2028-02-29T10:00", "UTC", 3);
        assertThat(years)
                .containsExactly(
                        Instant.parse("2028-02-29T10:00:00Z"),
                        Instant.parse("2032-02-29T10:00:00Z"),
                        Instant.parse("2036-02-29T10:00:00Z"));
    }

    @Test
    void stopsAfterCount() {
        assertThat(expand("RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3", "2027-01-04T10:00", "UTC", 10))
                .containsExactly(
                        Instant.parse("2027-01-04T10:00:00Z"),
                        Instant.parse("2027-01-18T10:00:00Z"),
                        Instant.parse("2027-02-01T10:00:00Z"));
    }

    @Test
    void stopsAtAUtcUntilOnTheWallClock() {
        List<Instant> days = expand("FREQ=DAILY;UNTIL=20270330T070000Z", "2027-03-27T09:00", "Europe/Paris", 10);
        // The last is 30 March 09:00 Paris, which is 07:00Z: UNTIL is inclusive.
        assertThat(days).hasSize(4).last().isEqualTo(Instant.parse("2027-03-30T07:00:00Z"));
    }

    @Test
    void leavesOutCancelledOccurrences() {
        Instant cancelled = Instant.parse("2027-01-05T10:00:00Z");
        Occurrences series = new Occurrences(
                SeriesRule.parse("FREQ=DAILY;COUNT=3"),
                Instant.parse("2027-01-04T10:00:00Z"),
                ZoneId.of("UTC"),
                Set.of(cancelled));
        assertThat(series.between(Instant.EPOCH, FAR, 10))
                .containsExactly(Instant.parse("2027-01-04T10:00:00Z"), Instant.parse("2027-01-06T10:00:00Z"));
        assertThat(series.contains(cancelled)).isTrue();
        assertThat(series.contains(cancelled.plusSeconds(1))).isFalse();
    }

    @Test
    void startsAWindowFarIntoAnEndlessSeriesWithoutWalkingFromTheStart() {
        Occurrences hourly = new Occurrences(
                SeriesRule.parse("FREQ=HOURLY"), Instant.parse("2027-01-01T00:00:00Z"), ZoneId.of("UTC"), Set.of());
        Instant from = Instant.parse("2036-01-01T00:00:00Z");

        assertThat(hourly.instancesNear(from).next())
                .as("the first instance expanded")
                .isEqualTo(Occurrences.floating(LocalDateTime.parse("2035-12-31T00:00:00")));
        List<Instant> year = hourly.between(from, Instant.parse("2037-01-01T00:00:00Z"), 10_000);
        assertThat(year).hasSize(366 * 24).first().isEqualTo(from);
    }

    @Test
    void aBySetPosThatNoSetHasEndsTheSeries() {
        // lib-recur gives up after 1,000 weeks without a second Monday.
        Occurrences never = new Occurrences(
                SeriesRule.parse("FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2"),
                Instant.parse("2027-01-04T10:00:00Z"),
                ZoneId.of("UTC"),
                Set.of());
        assertThatThrownBy(never::check).isInstanceOf(InvalidSeries.class);
        assertThat(never.between(Instant.EPOCH, FAR, 10)).isEmpty();
        assertThat(never.contains(Instant.parse("2027-01-04T10:00:00Z"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "FREQ=MINUTELY",
                "FREQ=SECONDLY",
                "FREQ=HOURLY;BYMINUTE=0,30",
                "FREQ=DAILY;BYSECOND=1",
                "FREQ=FORTNIGHTLY",
                "BYDAY=MO",
                "FREQ=WEEKLY;COUNT=2;UNTIL=20300101T000000Z",
                "FREQ=WEEKLY;BYDAY=XX",
                "FREQ=WEEKLY\nBYDAY=MO",
                "FREQ=WEEKLY;BYDAY=MO\u0000",
                "FREQ=WEEKLY;RSCALE=JULIAN",
                "FREQ=MONTHLY;RSCALE=GREGORIAN;SKIP=FORWARD",
                "FREQ=YEARLY;_BYMONTH_FILTER=2",
                "FREQ=YEARLY;BYDAY=MO;BYSETPOS=-400",
                "FREQ=WEEKLY;;BYDAY=MO",
                "FREQ=HOURLY;INTERVAL=10001",
                "FREQ=HOURLY;COUNT=10001",
                "FREQ=HOURLY;INTERVAL=2147483647",
                "",
            })
    void refusesARuleItCannotTake(String rule) {
        assertThatThrownBy(() -> SeriesRule.parse(rule)).isInstanceOf(InvalidSeries.class);
    }

    private static List<Instant> expand(String rule, String firstLocal, String zone, int count) {
        ZoneId zoneId = ZoneId.of(zone);
        Instant first =
                ZonedDateTime.of(LocalDateTime.parse(firstLocal), zoneId).toInstant();
        return new Occurrences(SeriesRule.parse(rule), first, zoneId, Set.of()).between(Instant.EPOCH, FAR, count);
    }

    private static LocalDateTime localIn(Instant instant, String zone) {
        return LocalDateTime.ofInstant(instant, ZoneId.of(zone));
    }
}
