package com.meetingreminders.meeting;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.ParameterList;
import net.fortuna.ical4j.model.TimeZone;
import net.fortuna.ical4j.model.TimeZoneRegistry;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;
import net.fortuna.ical4j.model.component.VAlarm;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.component.VTimeZone;
import net.fortuna.ical4j.model.parameter.TzId;
import net.fortuna.ical4j.model.property.Action;
import net.fortuna.ical4j.model.property.Attendee;
import net.fortuna.ical4j.model.property.Created;
import net.fortuna.ical4j.model.property.Description;
import net.fortuna.ical4j.model.property.DtStamp;
import net.fortuna.ical4j.model.property.DtStart;
import net.fortuna.ical4j.model.property.ExDate;
import net.fortuna.ical4j.model.property.LastModified;
import net.fortuna.ical4j.model.property.ProdId;
import net.fortuna.ical4j.model.property.RRule;
import net.fortuna.ical4j.model.property.RecurrenceId;
import net.fortuna.ical4j.model.property.Summary;
import net.fortuna.ical4j.model.property.Uid;
import net.fortuna.ical4j.model.property.immutable.ImmutableVersion;

/**
 * A meeting as an iCalendar object: one VEVENT whose UID is the meeting's id, with its start in the meeting's zone (and
 * that zone's VTIMEZONE), its rule, its cancelled occurrences and one VALARM per remindBefore. iCalendar counts in
 * whole seconds, so a start or remindBefore with milliseconds is written to the second below.
 */
final class CalendarExport {

    /** RFC 5545's longest content line, in octets, without its CRLF. */
    private static final int MOST_OCTETS_A_LINE = 75;

    static final String PRODUCT = "-//Meeting Reminders//Meeting Reminders 1.1//EN";

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss");
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'");

    /** The zone definitions come with ical4j, read from its resources and kept once read. */
    private static final TimeZoneRegistry ZONES =
            TimeZoneRegistryFactory.getInstance().createRegistry();

    private CalendarExport() {}

    static String write(MeetingView meeting) {
        ZoneId zone = ZoneId.of(meeting.timeZone());
        boolean utc = zone.normalized().equals(ZoneOffset.UTC);
        VEvent event = new VEvent(false);
        event.add(new Uid(meeting.id().toString()));
        // Without a METHOD, DTSTAMP is when the event last changed (RFC 5545, 3.8.7.2).
        event.add(new DtStamp(seconds(meeting.updatedAt())));
        event.add(new Created(seconds(meeting.createdAt())));
        event.add(new LastModified(seconds(meeting.updatedAt())));
        event.add(new Summary(meeting.title()));
        event.add(new DtStart<>(zoneParameter(zone, utc), format(meeting.startsAt(), zone, utc)));
        if (meeting.recurrence() != null) {
            event.add(new RRule<>(meeting.recurrence()));
        }
        if (!meeting.cancelledOccurrences().isEmpty()) {
            String dates = meeting.cancelledOccurrences().stream()
                    .map(at -> format(at, zone, utc))
                    .collect(Collectors.joining(","));
            event.add(new ExDate<>(zoneParameter(zone, utc), dates));
        }
        meeting.attendees().forEach(address -> event.add(new Attendee("mailto:" + address)));
        for (Duration before : meeting.remindBefore()) {
            VAlarm alarm = new VAlarm(before.truncatedTo(ChronoUnit.SECONDS).negated());
            alarm.add(new Action("DISPLAY"));
            alarm.add(new Description(meeting.title()));
            event.add(alarm);
        }
        Calendar calendar = new Calendar();
        calendar.add(new ProdId(PRODUCT));
        calendar.add(ImmutableVersion.VERSION_2_0);
        if (!utc) {
            // A zone younger than ical4j's definitions goes without its VTIMEZONE; its TZID is still the IANA name.
            definition(zone).ifPresent(calendar::add);
        }
        calendar.add(event);
        // In order, so that the same meeting is always written the same way.
        meeting.movedOccurrences().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(moved -> calendar.add(movedOccurrence(meeting, moved.getKey(), moved.getValue(), zone, utc)));
        return folded(calendar);
    }

    /** One occurrence moved: the series' UID, the occurrence's original start as RECURRENCE-ID, its new DTSTART. */
    private static VEvent movedOccurrence(
            MeetingView meeting, Instant occurrence, Instant startsAt, ZoneId zone, boolean utc) {
        VEvent event = new VEvent(false);
        event.add(new Uid(meeting.id().toString()));
        event.add(new DtStamp(seconds(meeting.updatedAt())));
        event.add(new RecurrenceId<>(zoneParameter(zone, utc), format(occurrence, zone, utc)));
        event.add(new Summary(meeting.title()));
        event.add(new DtStart<>(zoneParameter(zone, utc), format(startsAt, zone, utc)));
        return event;
    }

    /**
     * The calendar's lines folded at 75 octets of UTF-8, as RFC 5545 (3.1) asks, between characters. ical4j's outputter
     * folds at 75 UTF-16 units: longer lines where a title is not ASCII, and an emoji cut into halves that UTF-8 writes
     * as two question marks.
     */
    private static String folded(Calendar calendar) {
        StringBuilder folded = new StringBuilder();
        for (String line : calendar.toString().split("\r\n")) {
            int octets = 0;
            for (int i = 0; i < line.length(); ) {
                int character = line.codePointAt(i);
                int size = utf8Octets(character);
                if (octets + size > MOST_OCTETS_A_LINE) {
                    folded.append("\r\n ");
                    octets = 1;
                }
                folded.appendCodePoint(character);
                octets += size;
                i += Character.charCount(character);
            }
            folded.append("\r\n");
        }
        return folded.toString();
    }

    private static int utf8Octets(int character) {
        return character < 0x80 ? 1 : character < 0x800 ? 2 : character < 0x10000 ? 3 : 4;
    }

    private static Optional<VTimeZone> definition(ZoneId zone) {
        try {
            return Optional.ofNullable(ZONES.getTimeZone(zone.getId())).map(TimeZone::getVTimeZone);
        } catch (RuntimeException unreadable) {
            // A definition ical4j cannot load must not cost the caller the export: the TZID still names the zone.
            return Optional.empty();
        }
    }

    private static ParameterList zoneParameter(ZoneId zone, boolean utc) {
        return new ParameterList(utc ? List.of() : List.of(new TzId(zone.getId())));
    }

    private static String format(Instant at, ZoneId zone, boolean utc) {
        return utc ? UTC.format(at.atOffset(ZoneOffset.UTC)) : LOCAL.format(at.atZone(zone));
    }

    private static Instant seconds(Instant at) {
        return at.truncatedTo(ChronoUnit.SECONDS);
    }
}
