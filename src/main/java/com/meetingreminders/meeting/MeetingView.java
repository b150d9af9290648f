package com.meetingreminders.meeting;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A meeting as the API returns it. */
public record MeetingView(
        UUID id,
        String title,
        Instant startsAt,
        String timeZone,
        List<Duration> remindBefore,
        List<String> attendees,
        String webhookUrl,
        String failureWebhookUrl,
        String recurrence,
        List<Instant> cancelledOccurrences,
        long version,
        Instant createdAt,
        Instant updatedAt,
        List<ReminderState> reminders,
        @JsonIgnore @Schema(hidden = true) Map<Instant, Instant> movedOccurrences) {

    /** One reminder inside a meeting: when it is sent and where it stands. */
    public record ReminderState(Instant sendAt, ReminderStatus status) {}

    /** The meeting without its moved occurrences: a page of meetings then costs no query per meeting for them. */
    static MeetingView of(Meeting meeting, List<Reminder> reminders) {
        return of(meeting, reminders, Map.of());
    }

    /** One meeting with its moved occurrences, which only its iCalendar form shows (as RECURRENCE-ID events). */
    static MeetingView withMoves(Meeting meeting, List<Reminder> reminders) {
        return of(meeting, reminders, Map.copyOf(meeting.movedOccurrences));
    }

    private static MeetingView of(Meeting meeting, List<Reminder> reminders, Map<Instant, Instant> moved) {
        return new MeetingView(
                meeting.id,
                meeting.title,
                meeting.startsAt,
                meeting.timeZone,
                meeting.remindBefore.stream().map(Duration::parse).toList(),
                List.copyOf(meeting.attendees),
                meeting.webhookUrl,
                meeting.failureWebhookUrl,
                meeting.recurrence,
                List.copyOf(meeting.cancelledOccurrences),
                meeting.version,
                meeting.createdAt,
                meeting.updatedAt,
                reminders.stream()
                        .map(reminder -> new ReminderState(reminder.sendAt, reminder.status))
                        .sorted(Comparator.comparing(ReminderState::sendAt))
                        .toList(),
                moved);
    }
}
