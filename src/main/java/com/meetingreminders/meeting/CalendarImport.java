package com.meetingreminders.meeting;

import com.meetingreminders.http.InvalidBody;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;

/**
 * A meeting from one VEVENT of an iCalendar object (RFC 5545), as the same {@link MeetingRequest} the JSON create
 * takes, so that every rule of the JSON form applies once. What the service cannot read is refused with the property
 * that says why; the input is never echoed.
 */
final class CalendarImport {

    static final String MEDIA_TYPE = "text/calendar";

    /** VCALENDAR, VEVENT, VALARM or VTIMEZONE, STANDARD: deeper nesting is no calendar, and costs stack to parse. */
    private static final int MAX_DEPTH = 4;

    private static final Pattern PROPERTY_NAME = Pattern.compile("[A-Z][A-Z0-9-]{0,63}");
    private static final String MAILTO = "mailto:";

    private CalendarImport() {}

    /**
     * A meeting as its calendar describes it: the body the JSON form would send, and the occurrences that events with
     * a RECURRENCE-ID move (original start to new start), which the JSON form has no field for.
     */
    record Imported(MeetingRequest meeting, Map<Instant, Instant> moved) {}

    /** The meeting the calendar describes, or {@link InvalidBody} naming what the service cannot read. */
    static Imported read(byte[] body) {
        String text = decode(body);
        checkShape(text);
        CalendarParsing.Parsed parsed;
        try {
            parsed = CalendarParsing.parse(text);
        } catch (ParserException e) {
            // The parser wraps whatever its handler throws: CalendarParsing's refusal of a date-time is in here.
            if (e.getCause() instanceof InvalidBody named) {
                throw named;
            }
            throw propertyAt(text, e.getLineNo())
                    .map(name -> CalendarValues.unreadable(
                            name, "is not written as RFC 5545 says (line " + e.getLineNo() + ")"))
                    .orElseGet(() -> notICalendar());
        } catch (IOException | RuntimeException e) {
            throw notICalendar();
        }
        if (parsed.calendars() > 1) {
            throw CalendarValues.unreadable(
                    "VCALENDAR", "must be one calendar, with one event or one series; send other calendars one by one");
        }
        Calendar calendar = parsed.last().orElseThrow(CalendarImport::notICalendar);
        try {
            return meetingOf(calendar);
        } catch (InvalidBody e) {
            throw e;
        } catch (RuntimeException e) {
            // ical4j reads some values only when asked (a date-time with a TZID): whatever it still refuses is the
            // caller's calendar, never our failure.
            throw CalendarValues.unreadable("body", "holds a value that is not RFC 5545");
        }
    }

    private static InvalidBody notICalendar() {
        return CalendarValues.unreadable(
                "body", "must be an iCalendar object (RFC 5545): BEGIN:VCALENDAR ... END:VCALENDAR");
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

    private static Imported meetingOf(Calendar calendar) {
        List<VEvent> events = calendar.getComponents(Component.VEVENT);
        if (events.isEmpty()) {
            throw CalendarValues.unreadable("VEVENT", "is missing: the calendar must hold one event");
        }
        List<VEvent> masters = events.stream()
                .filter(event -> event.getProperty(Property.RECURRENCE_ID).isEmpty())
                .toList();
        if (masters.size() != 1) {
            throw CalendarValues.unreadable(
                    "VEVENT", "must be one event, or one series with its exceptions; send other events one by one");
        }
        VEvent master = masters.get(0);
        if (CalendarValues.isCancelled(master)) {
            // Imported, it would arm reminders for an event that its calendar says will not take place.
            throw new InvalidBody(
                    Property.STATUS, "is CANCELLED: a cancelled event or series has no reminders to send");
        }
        for (String refused : List.of(Property.RDATE, Property.EXRULE)) {
            if (master.getProperty(refused).isPresent()) {
                throw CalendarValues.unreadable(refused, "is not supported: a series is one RRULE with its EXDATEs");
            }
        }
        Property dtstart = master.getProperty(Property.DTSTART)
                .orElseThrow(() -> CalendarValues.unreadable(Property.DTSTART, "is required: the meeting's start"));
        ZoneId zone = CalendarValues.zoneOf(dtstart, Property.DTSTART, null);
        OffsetDateTime startsAt = CalendarValues.instantOf(dtstart, Property.DTSTART, zone);
        String recurrence = recurrence(master);
        List<OffsetDateTime> cancelled = new ArrayList<>(exceptions(master, zone));
        CalendarOverrides.Changes changes = CalendarOverrides.read(
                events.stream().filter(event -> event != master).toList(),
                CalendarValues.value(master, Property.UID).orElse(""),
                startsAt,
                zone,
                recurrence,
                cancelled);
        cancelled.addAll(changes.cancelled());
        List<Duration> remindBefore =
                master.getAlarms().stream().map(CalendarAlarms::remindBefore).toList();
        List<String> attendees = master.getProperties(Property.ATTENDEE).stream()
                .map(CalendarImport::address)
                .toList();
        MeetingRequest meeting = new MeetingRequest(
                CalendarValues.value(master, Property.SUMMARY).orElse(null),
                startsAt,
                zone.getId(),
                remindBefore.isEmpty() ? null : remindBefore,
                attendees.isEmpty() ? null : attendees,
                null,
                null,
                recurrence,
                cancelled.isEmpty() ? null : cancelled);
        return new Imported(meeting, changes.moved());
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
            throw CalendarValues.unreadable("body", "must be UTF-8");
        }
        // A byte order mark is no content, as for JSON.
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** Control characters and deep nesting are refused before the parser sees them. */
    private static void checkShape(String text) {
        if (text.chars().anyMatch(c -> (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f)) {
            throw CalendarValues.unreadable("body", "must not hold control characters other than tab and line breaks");
        }
        int depth = 0;
        for (String line : text.replaceAll("\r?\n[ \t]", "").split("\r?\n")) {
            String name = line.toUpperCase(Locale.ROOT);
            if (name.startsWith("BEGIN:") && ++depth > MAX_DEPTH) {
                throw CalendarValues.unreadable("body", "nests components deeper than VCALENDAR, VEVENT and VALARM");
            }
            if (name.startsWith("END:")) {
                depth--;
            }
        }
    }

    private static String recurrence(VEvent master) {
        List<Property> rules = master.getProperties(Property.RRULE);
        if (rules.size() > 1) {
            throw CalendarValues.unreadable(Property.RRULE, "must appear at most once: a meeting follows one rule");
        }
        return rules.isEmpty() ? null : CalendarValues.text(rules.get(0));
    }

    private static List<OffsetDateTime> exceptions(VEvent master, ZoneId zone) {
        List<OffsetDateTime> cancelled = new ArrayList<>();
        for (Property exdate : master.getProperties(Property.EXDATE)) {
            ZoneId exdateZone = CalendarValues.zoneOf(exdate, Property.EXDATE, zone);
            for (String value : CalendarValues.text(exdate).split(",")) {
                cancelled.add(CalendarValues.instantOf(value.strip(), exdate, Property.EXDATE, exdateZone));
            }
        }
        return cancelled;
    }

    private static String address(Property attendee) {
        String value = CalendarValues.text(attendee).strip();
        if (!value.regionMatches(true, 0, MAILTO, 0, MAILTO.length())) {
            throw CalendarValues.unreadable(Property.ATTENDEE, "must be a mailto: address");
        }
        return value.substring(MAILTO.length());
    }
}
