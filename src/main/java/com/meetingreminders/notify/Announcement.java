package com.meetingreminders.notify;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A notification, as JSON, for the stream clients of the meeting's owner: delivered (an unnamed event, which SSE
 * clients see as {@code message}), or under an event name such as {@code reminder.failed}.
 */
public record Announcement(String owner, Optional<String> event, String notification) {

    /** A delivered notification. */
    public Announcement(String owner, String notification) {
        this(owner, Optional.empty(), notification);
    }

    public static Announcement named(String event, String owner, String notification) {
        return new Announcement(owner, Optional.of(event), notification);
    }

    /**
     * One line: the owner URL-encoded (so it holds no space or line break), a space, the event name and a space
     * when there is one, the compact JSON. A name never starts with '{' and the JSON always does, so a delivered
     * notification keeps the line it had before events had names.
     */
    String toLine() {
        return URLEncoder.encode(owner, StandardCharsets.UTF_8) + " "
                + event.map(name -> name + " ").orElse("") + notification;
    }

    static Announcement ofLine(String line) {
        int space = line.indexOf(' ');
        String owner = URLDecoder.decode(line.substring(0, space), StandardCharsets.UTF_8);
        String rest = line.substring(space + 1);
        if (rest.startsWith("{")) {
            return new Announcement(owner, rest);
        }
        int nameEnds = rest.indexOf(' ');
        return named(rest.substring(0, nameEnds), owner, rest.substring(nameEnds + 1));
    }
}
