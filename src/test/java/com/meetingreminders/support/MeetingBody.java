package com.meetingreminders.support;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds request bodies for /meetings; a valid meeting an hour ahead unless told otherwise. */
public final class MeetingBody {

    private final Map<String, Object> fields = new LinkedHashMap<>();

    private MeetingBody() {
        fields.put("title", "Weekly sync");
        fields.put("startsAt", Moments.now().plusSeconds(3600).toString());
    }

    public static MeetingBody meeting() {
        return new MeetingBody();
    }

    public MeetingBody title(String title) {
        return with("title", title);
    }

    public MeetingBody startsAt(Instant startsAt) {
        return with("startsAt", startsAt.toString());
    }

    public MeetingBody remindBefore(String... durations) {
        return with("remindBefore", List.of(durations));
    }

    public MeetingBody webhookUrl(String url) {
        return with("webhookUrl", url);
    }

    public MeetingBody timeZone(String zone) {
        return with("timeZone", zone);
    }

    public MeetingBody attendees(String... emails) {
        return with("attendees", List.of(emails));
    }

    /** Any field, of any JSON type: null removes it. */
    public MeetingBody with(String field, Object value) {
        if (value == null) {
            fields.remove(field);
        } else {
            fields.put(field, value);
        }
        return this;
    }

    public Map<String, Object> toMap() {
        return new LinkedHashMap<>(fields);
    }
}
