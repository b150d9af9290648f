package com.meetingreminders.meeting;

import java.time.ZoneId;
import java.util.Set;

/** The IANA time-zone ids the JDK has rules for, such as {@code Europe/Paris}; offsets such as {@code +08:00} are not. */
final class IanaZoneIds {

    /**
     * Read once: {@link ZoneId#getAvailableZoneIds()} copies all of its some 600 ids into a new set on every call, and
     * the ids cannot change while the service runs: it registers no zone rules of its own, and keeps ical4j from
     * registering a caller's ({@link CalendarParsing}).
     */
    private static final Set<String> KNOWN = Set.copyOf(ZoneId.getAvailableZoneIds());

    private IanaZoneIds() {}

    static boolean isKnown(String id) {
        return KNOWN.contains(id);
    }
}
