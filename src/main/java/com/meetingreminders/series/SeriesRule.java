package com.meetingreminders.series;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.EnumSet;
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
        RecurrenceRule rule;
        try {
            rule = new RecurrenceRule(value.toUpperCase(Locale.ROOT), RecurrenceRule.RfcMode.RFC5545_STRICT);
        } catch (InvalidRecurrenceRuleException | RuntimeException e) {
            throw new InvalidSeries("must be an RFC 5545 RRULE, such as FREQ=WEEKLY;BYDAY=MO");
        }
        if (!TAKEN.contains(rule.getFreq())) {
            throw new InvalidSeries("must repeat at most hourly: FREQ of HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY");
        }
        if (rule.hasPart(RecurrenceRule.Part.BYSECOND) || rule.hasPart(RecurrenceRule.Part.BYMINUTE)) {
            throw new InvalidSeries("must repeat at most hourly: BYMINUTE and BYSECOND are not taken");
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
