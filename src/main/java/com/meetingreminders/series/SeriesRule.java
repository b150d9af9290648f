package com.meetingreminders.series;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.dmfs.rfc5545.DateTime;
import org.dmfs.rfc5545.recur.Freq;
import org.dmfs.rfc5545.recur.InvalidRecurrenceRuleException;
import org.dmfs.rfc5545.recur.RecurrenceRule;

/**
 * An RFC 5545 RRULE as a meeting's {@code recurrence} holds it, read by dmfs lib-recur, which does the expansion; this
 * class only refuses what the service does not take and says why.
 */
public final class SeriesRule {

    /** Longer than any rule a calendar writes; keeps a hostile rule from costing parse time. */
    static final int MAX_LENGTH = 500;

    private static final Set<Freq> TAKEN = EnumSet.of(Freq.HOURLY, Freq.DAILY, Freq.WEEKLY, Freq.MONTHLY, Freq.YEARLY);
    private static final String PREFIX = "RRULE:";

    /**
     * The parts RFC 5545 names for a rule. lib-recur also reads RFC 7529's RSCALE and SKIP, and parts of its own whose
     * names start with an underscore; a calendar such a rule is exported to cannot read those, and the service expands
     * every rule in the Gregorian calendar.
     */
    private static final Set<String> RFC_5545_PARTS = Set.of(
            "FREQ",
            "UNTIL",
            "COUNT",
            "INTERVAL",
            "BYSECOND",
            "BYMINUTE",
            "BYHOUR",
            "BYDAY",
            "BYMONTHDAY",
            "BYYEARDAY",
            "BYWEEKNO",
            "BYMONTH",
            "BYSETPOS",
            "WKST");

    /**
     * Far more than any calendar uses (every 10,000 hours is over a year apart), and far below the intervals that
     * overflow lib-recur's date arithmetic: near 2^31 hours, looking for an instant thousands of years on never ends.
     */
    private static final int MOST_INTERVAL = 10_000;

    /**
     * lib-recur cannot skip ahead in a rule with a COUNT: it counts every instance on the way, so that looking for an
     * occurrence years away (a DELETE of it, a RECURRENCE-ID in an import) costs an instance a step. At this bound a
     * look costs milliseconds; a longer series can be endless, or end by UNTIL.
     */
    private static final int MOST_COUNT = 10_000;

    /** RFC 5545's bound on a BYSETPOS value, a day of the year; lib-recur takes larger ones, ical4j refuses them. */
    private static final int MOST_SET_POSITION = 366;

    private final RecurrenceRule rule;

    private SeriesRule(RecurrenceRule rule) {
        this.rule = rule;
    }

    /** The rule, or what is wrong with it, said for a client without echoing the input. */
    public static SeriesRule parse(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new InvalidSeries("must be at most " + MAX_LENGTH + " characters");
        }
        if (text.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            throw new InvalidSeries("must be printable ASCII, without line breaks");
        }
        String value = text.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) ? text.substring(PREFIX.length()) : text;
        String upper = value.toUpperCase(Locale.ROOT);
        boolean unnamedPart = Arrays.stream(upper.split(";"))
                .map(part -> part.substring(0, Math.max(part.indexOf('='), 0)))
                .anyMatch(name -> !RFC_5545_PARTS.contains(name));
        if (unnamedPart) {
            throw new InvalidSeries("must be an RFC 5545 RRULE, such as FREQ=WEEKLY;BYDAY=MO, with only the parts it"
                    + " names (RSCALE and SKIP are not taken)");
        }
        RecurrenceRule rule;
        try {
            rule = new RecurrenceRule(upper, RecurrenceRule.RfcMode.RFC5545_STRICT);
        } catch (InvalidRecurrenceRuleException | RuntimeException e) {
            throw new InvalidSeries("must be an RFC 5545 RRULE, such as FREQ=WEEKLY;BYDAY=MO");
        }
        if (!TAKEN.contains(rule.getFreq())) {
            throw new InvalidSeries("must repeat at most hourly: FREQ of HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY");
        }
        if (rule.hasPart(RecurrenceRule.Part.BYSECOND) || rule.hasPart(RecurrenceRule.Part.BYMINUTE)) {
            throw new InvalidSeries("must repeat at most hourly: BYMINUTE and BYSECOND are not taken");
        }
        if (rule.getCount() != null && rule.getCount() > MOST_COUNT) {
            throw new InvalidSeries("must have a COUNT of at most " + MOST_COUNT + ", or end by UNTIL, or not at all");
        }
        if (rule.getInterval() > MOST_INTERVAL) {
            throw new InvalidSeries("must have an INTERVAL of at most " + MOST_INTERVAL);
        }
        List<Integer> setPositions = rule.getByPart(RecurrenceRule.Part.BYSETPOS);
        if (setPositions != null
                && setPositions.stream().anyMatch(position -> Math.abs(position) > MOST_SET_POSITION)) {
            throw new InvalidSeries(
                    "must have BYSETPOS values from -" + MOST_SET_POSITION + " to " + MOST_SET_POSITION);
        }
        return new SeriesRule(rule);
    }

    /**
     * A fresh rule for expansion from a wall-clock start: an UNTIL given in UTC or as a date becomes the local time it
     * means in the zone, so that the whole expansion runs on the wall clock.
     */
    RecurrenceRule floatingIn(ZoneId zone) {
        RecurrenceRule copy;
        try {
            copy = new RecurrenceRule(rule.toString(), RecurrenceRule.RfcMode.RFC5545_STRICT);
        } catch (InvalidRecurrenceRuleException e) {
            throw new IllegalStateException("a rule that parsed once parses again", e);
        }
        Optional.ofNullable(copy.getUntil()).ifPresent(until -> copy.setUntil(localUntil(until, zone)));
        return copy;
    }

    private static DateTime localUntil(DateTime until, ZoneId zone) {
        if (until.isAllDay()) {
            return new DateTime(until.getYear(), until.getMonth(), until.getDayOfMonth(), 23, 59, 59);
        }
        if (until.isFloating()) {
            return until;
        }
        LocalDateTime local = ZonedDateTime.ofInstant(java.time.Instant.ofEpochMilli(until.getTimestamp()), zone)
                .toLocalDateTime();
        return Occurrences.floating(local);
    }

    public boolean isEndless() {
        return rule.isInfinite();
    }

    /** The rule in its canonical spelling, without the RRULE: prefix. */
    @Override
    public String toString() {
        return rule.toString();
    }
}
