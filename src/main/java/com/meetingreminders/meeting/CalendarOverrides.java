package com.meetingreminders.meeting;

import com.meetingreminders.series.InvalidSeries;
import com.meetingreminders.series.Occurrences;
import com.meetingreminders.series.SeriesRule;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;

/**
 * The other VEVENTs of an imported series: each has the series' UID and a RECURRENCE-ID (the original start of one
 * occurrence), and cancels that occurrence (STATUS:CANCELLED) or moves it to its own DTSTART, as Google Calendar,
 * Outlook, Apple Calendar and our own export write them. What else such an event changes (its title, its alarms) is not
 * imported: an occurrence of a meeting differs from the series only in where it takes place.
 */
final class CalendarOverrides {

    /** The occurrences the events cancel, and those they move: original start to new start. */
    record Changes(List<OffsetDateTime> cancelled, Map<Instant, Instant> moved) {}

    private final Optional<Occurrences> series;
    private final ZoneId zone;
    private final Set<Instant> excluded;
    private final Set<Instant> seen = new HashSet<>();
    private final List<OffsetDateTime> cancelled = new ArrayList<>();
    private final Map<Instant, Instant> moved = new HashMap<>();

    private CalendarOverrides(Optional<Occurrences> series, ZoneId zone, Set<Instant> excluded) {
        this.series = series;
        this.zone = zone;
        this.excluded = excluded;
    }

    /**
     * Reads the events of a series whose master has this UID, DTSTART ({@code first}, in {@code zone}), RRULE (null
     * when it has none) and EXDATEs; refuses, as a 400 naming RECURRENCE-ID, what no calendar can mean.
     */
    static Changes read(
            List<VEvent> events,
            String uid,
            OffsetDateTime first,
            ZoneId zone,
            String rule,
            List<OffsetDateTime> exdates) {
        if (events.isEmpty()) {
            return new Changes(List.of(), Map.of());
        }
        if (rule == null) {
            throw CalendarValues.unreadable(
                    Property.RECURRENCE_ID,
                    "changes an occurrence of a series, but the event with this UID has no RRULE");
        }
        Set<Instant> excluded = new HashSet<>();
        exdates.forEach(at -> excluded.add(at.toInstant()));
        CalendarOverrides overrides = new CalendarOverrides(seriesOf(rule, first, zone), zone, excluded);
        for (VEvent event : events) {
            if (!uid.equals(CalendarValues.value(event, Property.UID).orElse(""))) {
                throw CalendarValues.unreadable(
                        Property.UID,
                        "of an event with RECURRENCE-ID must be the series' UID: an exception belongs to the series"
                                + " it changes; send other events one by one");
            }
            overrides.add(event);
        }
        if (overrides.moved.size() > MeetingRequest.MAX_CANCELLED) {
            throw CalendarValues.unreadable(Property.RECURRENCE_ID, "a series holds at most 1,000 moved occurrences");
        }
        return new Changes(List.copyOf(overrides.cancelled), Map.copyOf(overrides.moved));
    }

    /** The rule's occurrences, or empty when the rule cannot be read: the JSON form's check then names recurrence. */
    private static Optional<Occurrences> seriesOf(String rule, OffsetDateTime first, ZoneId zone) {
        try {
            return Optional.of(new Occurrences(SeriesRule.parse(rule), first.toInstant(), zone, Set.of()));
        } catch (InvalidSeries | IllegalArgumentException unreadable) {
            return Optional.empty();
        }
    }

    private void add(VEvent event) {
        Property recurrenceId = event.getProperty(Property.RECURRENCE_ID).orElseThrow();
        if (recurrenceId.getParameter(Parameter.RANGE).isPresent()) {
            throw CalendarValues.unreadable(
                    Property.RECURRENCE_ID,
                    "with RANGE=THISANDFUTURE is not supported: change the series itself, or split it in two");
        }
        OffsetDateTime original = CalendarValues.instantOf(recurrenceId, Property.RECURRENCE_ID, zone);
        Instant occurrence = original.toInstant();
        if (!seen.add(occurrence)) {
            throw CalendarValues.unreadable(
                    Property.RECURRENCE_ID,
                    "names the occurrence " + occurrence + " twice: one event at most changes an occurrence");
        }
        if (series.isPresent() && !series.get().contains(occurrence)) {
            throw CalendarValues.unreadable(
                    Property.RECURRENCE_ID,
                    "names " + occurrence + ", which is not an occurrence of the RRULE from DTSTART");
        }
        if (CalendarValues.isCancelled(event)) {
            cancelled.add(original);
            return;
        }
        Property dtstart = event.getProperty(Property.DTSTART)
                .orElseThrow(() -> CalendarValues.unreadable(
                        Property.DTSTART, "is required in an event with RECURRENCE-ID: where the occurrence now is"));
        Instant startsAt =
                CalendarValues.instantOf(dtstart, Property.DTSTART, zone).toInstant();
        if (startsAt.equals(occurrence)) {
            // Calendars write an exception for an occurrence whose title or notes alone changed: no move.
            return;
        }
        if (excluded.contains(occurrence)) {
            throw CalendarValues.unreadable(
                    Property.RECURRENCE_ID,
                    "names " + occurrence + ", which EXDATE cancels: an occurrence is moved or cancelled, not both");
        }
        moved.put(occurrence, startsAt);
    }
}
