package com.meetingreminders.meeting;

import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.http.Problem;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Property;

/**
 * The values of an imported calendar's properties: date-times in their zone, text, and the 400 that names the property
 * a value breaks without echoing it.
 */
final class CalendarValues {

    private static final DateTimeFormatter LOCAL =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss").withResolverStyle(ResolverStyle.STRICT);

    private static final String UNREADABLE = "The calendar cannot be read.";

    private CalendarValues() {}

    /**
     * The zone of a date-time property: its TZID, UTC for a value in UTC, or {@code floating} (DTSTART's zone for an
     * EXDATE) for a local time without TZID.
     */
    static ZoneId zoneOf(Property property, String name, ZoneId floating) {
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

    /** A date-time property's own value as an instant, read in the zone {@link #zoneOf} gives it. */
    static OffsetDateTime instantOf(Property property, String name, ZoneId floating) {
        return instantOf(text(property), property, name, zoneOf(property, name, floating));
    }

    static OffsetDateTime instantOf(String value, Property property, String name, ZoneId zone) {
        boolean dateOnly = property.getParameter(Parameter.VALUE)
                        .map(Parameter::getValue)
                        .filter("DATE"::equalsIgnoreCase)
                        .isPresent()
                || value.length() == 8;
        if (dateOnly) {
            throw unreadable(name, "must be a date with a time: an all-day event has no start to remind before");
        }
        boolean utc = value.toUpperCase(Locale.ROOT).endsWith("Z");
        LocalDateTime local = requireDateTime(value, name);
        return utc
                ? local.atOffset(ZoneOffset.UTC)
                // The wall-clock rules of a series: a gap moves forward, an overlap takes the earlier offset.
                : ZonedDateTime.of(local, zone).toOffsetDateTime();
    }

    /** A date-time as RFC 5545 writes it, with or without its {@code Z}, read strictly: no 30 February. */
    static LocalDateTime requireDateTime(String value, String name) {
        boolean utc = value.toUpperCase(Locale.ROOT).endsWith("Z");
        try {
            return LocalDateTime.parse(utc ? value.substring(0, value.length() - 1) : value, LOCAL);
        } catch (DateTimeParseException e) {
            throw unreadable(name, "must be an RFC 5545 date-time such as 20270104T090000");
        }
    }

    static Optional<String> value(Component component, String name) {
        return component.getProperty(name).map(CalendarValues::text);
    }

    /** Whether the event says it will not take place (STATUS:CANCELLED). */
    static boolean isCancelled(Component event) {
        return value(event, Property.STATUS)
                .filter("CANCELLED"::equalsIgnoreCase)
                .isPresent();
    }

    /** A property's value; ical4j parses some only now, and refuses what it cannot. */
    static String text(Property property) {
        try {
            return property.getValue();
        } catch (RuntimeException e) {
            throw unreadable(property.getName(), "is not an RFC 5545 value");
        }
    }

    static InvalidBody unreadable(String field, String message) {
        return new InvalidBody(UNREADABLE, List.of(new Problem.FieldError(field, message)), 0);
    }
}
