package com.meetingreminders.meeting;

import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderStatus;
import java.time.Instant;

/** A reminder as GET /meetings/{id}/reminders returns it. */
public record ReminderView(
        Instant sendAt,
        String remindBefore,
        ReminderStatus status,
        int attempts,
        Instant deliveredAt,
        String lastError,
        Instant nextAttemptAt) {

    static ReminderView of(Reminder reminder) {
        return new ReminderView(
                reminder.sendAt,
                reminder.remindBefore,
                reminder.status,
                reminder.attempts,
                reminder.deliveredAt,
                reminder.lastError,
                reminder.nextAttemptAt);
    }
}
