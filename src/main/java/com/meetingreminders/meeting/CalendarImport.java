package com.meetingreminders.meeting;

import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.http.Problem;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.TemporalAmount;
import java.time.temporal.TemporalUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VAlarm;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.property.Trigger;

/**
 * A meeting from one VEVENT of an iCalendar object (RFC 5545), as the same {@link MeetingRequest} the JSON create
 * takes, so that every rule of the JSON form applies once. What the service cannot read is refused with the property
 * that says why; the input is never echoed.
 */
final class CalendarImport {

    static final String MEDIA_TYPE = "text/calendar";

    /** VCALENDAR, VEVENT, VALARM or VTIMEZONE, STANDARD: deeper nesting is no calendar, and costs stack to parse. */
    private static final int MAX_DEPTH = 4;

    private static final DateTimeFormatter LOCAL =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss").withResolverStyle(ResolverStyle.STRICT);

    private static final String UNREADABLE = "The calendar cannot be read.";
    private static final Pattern PROPERTY_NAME = Pattern.compile("[A-Z][A-Z0-9-]{0,63}");
    private static final String MAILTO = "mailto:";

    private CalendarImport() {}

    /** The meeting the calendar describes, or {@link InvalidBody} naming what the service cannot read. */
    static MeetingRequest read(byte[] body) {
        String text = decode(body);
        checkShape(text);
        Calendar calendar;
        try {
            calendar = new CalendarBuilder().build(new StringReader(text));
        } catch (ParserException e) {
            throw propertyAt(text, e.getLineNo())
                    .map(name -> unreadable(name, "is not written as RFC 5545 says (line " + e.getLineNo() + ")"))
                    .orElseGet(() -> notICalendar());
        } catch (IOException | RuntimeException e) {
            throw notICalendar();
        }
        try {
            return meetingOf(calendar);
        } catch (InvalidBody e) {
            throw e;
        } catch (RuntimeException e) {
            // ical4j reads some values only when asked (a date-time with a TZID): whatever it still refuses is the
            // caller's calendar, never our failure.
            throw unreadable("body", "holds a value that is not RFC 5545");
        }
    }

    private static InvalidBody notICalendar() {
        return unreadable("body", "must be an iCalendar object (RFC 5545): BEGIN:VCALENDAR ... END:VCALENDAR");
    }

    /**
     * The name of the property at a line the parser stopped at (counted in lines as sent, folded ones included), so
     * that the answer names it without echoing its value.
     */
    private static Optional<String> propertyAt(String text, int lineNo) {
        String[] lines = text.split("\r?\n", -1);
        int at = lineNo - 1;
        if (at < 0 || at >= lines.length) {
            return Optional.empty();
        }
        while (at > 0 && (lines[at].startsWith(" ") || lines[at].startsWith("\t"))) {
            at--;
        }
        String name = lines[at].split("[;:]", 2)[0].strip().toUpperCase(Locale.ROOT);
        return PROPERTY_NAME.matcher(name).matches() ? Optional.of(name) : Optional.empty();
    }

    private static MeetingRequest meetingOf(Calendar calendar) {
        List<VEvent> events = calendar.getComponents(Component.VEVENT);
        if (events.isEmpty()) {
            throw unreadable("VEVENT", "is missing: the calendar must hold one event");
        }
        Set<String> uids = events.stream()
                .map(event -> value(event, Property.UID).orElse(""))
                .collect(Collectors.toSet());
        List<VEvent> masters = events.stream()
                .filter(event -> event.getProperty(Property.RECURRENCE_ID).isEmpty())
                .toList();
        if (uids.size() > 1 || masters.size() != 1) {
            throw unreadable(
                    "VEVENT", "must be one event, or one series with its exceptions; send other events one by one");
        }
        VEvent master = masters.get(0);
        for (String refused : List.of(Property.RDATE, Property.EXRULE)) {
            if (master.getProperty(refused).isPresent()) {
                throw unreadable(refused, "is not supported: a series is one RRULE with its EXDATEs");
            }
        }
        Property dtstart = master.getProperty(Property.DTSTART)
                .orElseThrow(() -> unreadable(Property.DTSTART, "is required: the meeting's start"));
        ZoneId zone = zoneOf(dtstart, Property.DTSTART, null);
        OffsetDateTime startsAt = instantOf(text(dtstart), dtstart, Property.DTSTART, zone);
        List<OffsetDateTime> cancelled = new ArrayList<>(exceptions(master, zone));
        for (VEvent override : events) {
            if (override != master) {
                cancelled.add(cancelledOccurrence(override, zone));
            }
        }
        List<Duration> remindBefore =
                master.getAlarms().stream().map(CalendarImport::remindBefore).toList();
        List<String> attendees = master.getProperties(Property.ATTENDEE).stream()
                .map(CalendarImport::address)
                .toList();
        return new MeetingRequest(
                value(master, Property.SUMMARY).orElse(null),
                startsAt,
                zone.getId(),
                remindBefore.isEmpty() ? null : remindBefore,
                attendees.isEmpty() ? null : attendees,
                null,
                null,
                recurrence(master),
                cancelled.isEmpty() ? null : cancelled);
    }

    private static String decode(byte[] body) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw unreadable("body", "must be UTF-8");
        }
        // A byte order mark is no content, as for JSON.
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** Control characters and deep nesting are refused before the parser sees them. */
    private static void checkShape(String text) {
        if (text.chars().anyMatch(c -> (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f)) {
            throw unreadable("body", "must not hold control characters other than tab and line breaks");
        }
        int depth = 0;
        for (String line : text.replaceAll("\r?\n[ \t]", "").split("\r?\n")) {
            String name = line.toUpperCase(Locale.ROOT);
            if (name.startsWith("BEGIN:") && ++depth > MAX_DEPTH) {
                throw unreadable("body", "nests components deeper than VCALENDAR, VEVENT and VALARM");
            }
            if (name.startsWith("END:")) {
                depth--;
            }
        }
    }

    private static String recurrence(VEvent master) {
        List<Property> rules = master.getProperties(Property.RRULE);
        if (rules.size() > 1) {
            throw unreadable(Property.RRULE, "must appear at most once: a meeting follows one rule");
        }
        return rules.isEmpty() ? null : text(rules.get(0));
    }

    private static List<OffsetDateTime> exceptions(VEvent master, ZoneId zone) {
        List<OffsetDateTime> cancelled = new ArrayList<>();
        for (Property exdate : master.getProperties(Property.EXDATE)) {
            ZoneId exdateZone = zoneOf(exdate, Property.EXDATE, zone);
            for (String value : text(exdate).split(",")) {
                cancelled.add(instantOf(value.strip(), exdate, Property.EXDATE, exdateZone));
            }
        }
        return cancelled;
    }

    /** Another VEVENT of the series is one occurrence changed; the service imports only those cancelled. */
    private static OffsetDateTime cancelledOccurrence(VEvent override, ZoneId zone) {
        Property recurrenceId = override.getProperty(Property.RECURRENCE_ID).orElseThrow();
        boolean cancelled = value(override, Property.STATUS)
                .filter("CANCELLED"::equalsIgnoreCase)
                .isPresent();
        if (!cancelled) {
            throw unreadable(
                    Property.RECURRENCE_ID,
                    "names a moved occurrence, which is not imported; import the series and move it with PATCH"
                            + " /meetings/{id}/occurrences/{occurrence}");
        }
        return instantOf(
                text(recurrenceId),
                recurrenceId,
                Property.RECURRENCE_ID,
                zoneOf(recurrenceId, Property.RECURRENCE_ID, zone));
    }

    /**
     * The zone of a date-time property: its TZID, UTC for a value in UTC, or {@code floating} (DTSTART's zone for an
     * EXDATE) for a local time without TZID.
     */
    private static ZoneId zoneOf(Property property, String name, ZoneId floating) {
        Optional<String> tzid = property.getParameter(Parameter.TZID).map(Parameter::getValue);
        if (tzid.isPresent()) {
            return CalendarTimeZones.resolve(tzid.get())
                    .map(ZoneId::of)
                    .orElseThrow(() -> unreadable(
                            name,
                            "names a TZID the service does not know; use an IANA zone such as Europe/Paris, a Windows"
                                    + " zone such as W. Europe Standard Time, or UTC"));
        }
        if (text(property).toUpperCase(Locale.ROOT).endsWith("Z")) {
            return ZoneId.of(MeetingRequest.DEFAULT_TIME_ZONE);
        }
        if (floating == null) {
            throw unreadable(
                    name, "must be in UTC (ending in Z) or name its TZID: a floating local time is no instant");
        }
        return floating;
    }

    private static OffsetDateTime instantOf(String value, Property property, String name, ZoneId zone) {
        boolean dateOnly = property.getParameter(Parameter.VALUE)
                        .map(Parameter::getValue)
                        .filter("DATE"::equalsIgnoreCase)
                        .isPresent()
                || value.length() == 8;
        if (dateOnly) {
            throw unreadable(name, "must be a date with a time: an all-day event has no start to remind before");
        }
        boolean utc = value.toUpperCase(Locale.ROOT).endsWith("Z");
        LocalDateTime local;
        try {
            local = LocalDateTime.parse(utc ? value.substring(0, value.length() - 1) : value, LOCAL);
        } catch (DateTimeParseException e) {
            throw unreadable(name, "must be an RFC 5545 date-time such as 20270104T090000");
        }
        return utc
                ? local.atOffset(ZoneOffset.UTC)
                // The wall-clock rules of a series: a gap moves forward, an overlap takes the earlier offset.
                : ZonedDateTime.of(local, zone).toOffsetDateTime();
    }

    /** A VALARM's TRIGGER before the start, as the remindBefore it means. */
    private static Duration remindBefore(VAlarm alarm) {
        Trigger trigger = alarm.<Trigger>getProperty(Property.TRIGGER)
                .orElseThrow(() -> unreadable(Property.TRIGGER, "is required in every VALARM"));
        if (trigger.isAbsolute()) {
            throw unreadable(Property.TRIGGER, "must be relative to the start, such as -PT15M, not a date-time");
        }
        boolean relatedToEnd = trigger.getParameter(Parameter.RELATED)
                .map(Parameter::getValue)
                .filter("END"::equalsIgnoreCase)
                .isPresent();
        if (relatedToEnd) {
            throw unreadable(Property.TRIGGER, "must be related to the start (RELATED=START), not to the end");
        }
        Duration offset = exact(trigger.getDuration());
        if (!offset.isNegative() && !offset.isZero()) {
            throw unreadable(Property.TRIGGER, "must be at or before the start, such as -PT15M");
        }
        return offset.negated();
    }

    /** A day in a trigger is 24 hours: the service reminds at an absolute time before the start. */
    private static Duration exact(TemporalAmount amount) {
        Duration total = Duration.ZERO;
        try {
            for (TemporalUnit unit : amount.getUnits()) {
                // A Period always lists years and months, which no iCalendar duration has.
                if (amount.get(unit) != 0) {
                    total = total.plus(Duration.of(amount.get(unit), unit));
                }
            }
        } catch (RuntimeException e) {
            throw unreadable(Property.TRIGGER, "must be a duration in weeks, days, hours, minutes or seconds");
        }
        return total;
    }

    private static String address(Property attendee) {
        String value = text(attendee).strip();
        if (!value.regionMatches(true, 0, MAILTO, 0, MAILTO.length())) {
            throw unreadable(Property.ATTENDEE, "must be a mailto: address");
        }
        return value.substring(MAILTO.length());
    }

    private static Optional<String> value(Component component, String name) {
        return component.getProperty(name).map(CalendarImport::text);
    }

    /** A property's value; ical4j parses some only now, and refuses what it cannot. */
    private static String text(Property property) {
        try {
            return property.getValue();
        } catch (RuntimeException e) {
            throw unreadable(property.getName(), "is not an RFC 5545 value");
        }
    }

    private static InvalidBody unreadable(String field, String message) {
        return new InvalidBody(UNREADABLE, List.of(new Problem.FieldError(field, message)), 0);
    }
}
