package com.meetingreminders.meeting;

import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

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
        List<ReminderState> reminders) {

    /** One reminder inside a meeting: when it is sent and where it stands. */
    public record ReminderState(Instant sendAt, ReminderStatus status) {}

    static MeetingView of(Meeting meeting, List<Reminder> reminders) {
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
                        .toList());
    }
}
