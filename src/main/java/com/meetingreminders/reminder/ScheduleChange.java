package com.meetingreminders.reminder;

import java.util.List;

/** What a committed change to a meeting means for its timers: reminders to arm and reminders to disarm. */
public record ScheduleChange(List<ReminderRef> armed, List<ReminderRef> disarmed) {

    boolean isEmpty() {
        return armed.isEmpty() && disarmed.isEmpty();
    }
}
