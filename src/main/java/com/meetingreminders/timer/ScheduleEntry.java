package com.meetingreminders.timer;

import java.time.Instant;

/** A reminder as the schedule holds it: which one, and when it is due (its send time, or its next attempt). */
public record ScheduleEntry(ReminderRef ref, Instant dueAt) {

    public static ScheduleEntry atSendTime(ReminderRef ref) {
        return new ScheduleEntry(ref, ref.sendAt());
    }
}
