package com.meetingreminders.reminder;

import java.time.Instant;

/** A reminder as the schedule holds it: which one, and when it is due (its send time, or its next attempt). */
record ScheduleEntry(ReminderRef ref, Instant dueAt) {

    static ScheduleEntry atSendTime(ReminderRef ref) {
        return new ScheduleEntry(ref, ref.sendAt());
    }
}
