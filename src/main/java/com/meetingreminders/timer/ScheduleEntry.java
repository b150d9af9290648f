package com.meetingreminders.timer;

import java.time.Instant;

/** A reminder as the schedule holds it: which one, and when it is due (its send time, or its next attempt). */
public record ScheduleEntry(ReminderRef ref, Instant dueAt) {

    public static ScheduleEntry atSendTime(ReminderRef ref) {
        return new ScheduleEntry(ref, ref.sendAt());
    }

    /** Due at its next attempt when a failed one set that later than its send time; at its send time otherwise. */
    public static ScheduleEntry nextDue(ReminderRef ref, Instant nextAttemptAt) {
        return nextAttemptAt != null && nextAttemptAt.isAfter(ref.sendAt())
                ? new ScheduleEntry(ref, nextAttemptAt)
                : atSendTime(ref);
    }
}
