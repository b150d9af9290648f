package com.meetingreminders.support;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** iCalendar text as calendar applications write it: CRLF line ends, long lines folded at 75 octets. */
public final class IcsText {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss");

    /** Western Europe's VTIMEZONE as Outlook writes it: the Windows zone name, its rules from 1601 on. */
    public static final List<String> OUTLOOK_WESTERN_EUROPE = List.of(
            "BEGIN:VTIMEZONE",
            "TZID:W. Europe Standard Time",
            "BEGIN:STANDARD",
            "DTSTART:16011028T030000",
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
            "TZOFFSETFROM:+0200",
            "TZOFFSETTO:+0100",
            "END:STANDARD",
            "BEGIN:DAYLIGHT",
            "DTSTART:16010325T020000",
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
            "TZOFFSETFROM:+0100",
            "TZOFFSETTO:+0200",
            "END:DAYLIGHT",
            "END:VTIMEZONE");

    private IcsText() {}

    /** The lines of these parts, each one line or a list of lines, in order: for {@link #of}. */
    public static String[] lines(Object... parts) {
        return Arrays.stream(parts)
                .flatMap(part -> part instanceof List<?> list ? list.stream() : Stream.of(part))
                .map(String::valueOf)
                .toArray(String[]::new);
    }

    /** The lines, each folded as RFC 5545 (3.1) says, ended by CRLF. */
    public static byte[] of(String... lines) {
        return Arrays.stream(lines)
                .map(IcsText::fold)
                .map(line -> line + "\r\n")
                .collect(Collectors.joining())
                .getBytes(StandardCharsets.UTF_8);
    }

    /** A line longer than 75 octets as CRLF and a space between pieces of at most 75 octets, never inside a character. */
    static String fold(String line) {
        StringBuilder folded = new StringBuilder();
        int octets = 0;
        for (int i = 0; i < line.length(); ) {
            int codePoint = line.codePointAt(i);
            String character = new String(Character.toChars(codePoint));
            int size = character.getBytes(StandardCharsets.UTF_8).length;
            if (octets + size > 75) {
                folded.append("\r\n ");
                // The space that starts a continuation line counts towards its 75 octets.
                octets = 1;
            }
            folded.append(character);
            octets += size;
            i += Character.charCount(codePoint);
        }
        return folded.toString();
    }

    /** A local date-time as DTSTART;TZID=... writes it. */
    public static String local(LocalDateTime at) {
        return LOCAL.format(at);
    }

    /** An instant as a UTC date-time: 20270104T080000Z. */
    public static String utc(Instant at) {
        return LOCAL.format(at.atOffset(ZoneOffset.UTC)) + "Z";
    }
}
