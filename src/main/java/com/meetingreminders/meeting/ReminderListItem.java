package com.meetingreminders.meeting;

import com.meetingreminders.reminder.ReminderStatus;
import java.time.Instant;
import java.util.UUID;

/**
 * A reminder as GET /reminders lists it: what an operator needs to tell whose it is and what became of it, and the
 * meeting's start and time zone, so that a page can show its times as the meeting's attendees see them.
 */
public record ReminderListItem(
        UUID meetingId,
        String owner,
        String title,
        Instant startsAt,
        String timeZone,
        Instant sendAt,
        String remindBefore,
        ReminderStatus status,
        int attempts,
        String lastError,
        Instant deliveredAt) {

    /** How late it was delivered, in milliseconds; null until delivered. */
    public Long latenessMillis() {
        return deliveredAt == null
                ? null
                : java.time.Duration.between(sendAt, deliveredAt).toMillis();
    }
}
