package com.meetingreminders.reminder;

import java.util.ArrayList;
import java.util.List;

/** What a committed change to a meeting means for its timers: reminders to arm and reminders to disarm. */
public record ScheduleChange(List<ReminderRef> armed, List<ReminderRef> disarmed) {

    boolean isEmpty() {
        return armed.isEmpty() && disarmed.isEmpty();
    }

    static ScheduleChange merge(List<ScheduleChange> changes) {
        List<ReminderRef> armed = new ArrayList<>();
        List<ReminderRef> disarmed = new ArrayList<>();
        for (ScheduleChange change : changes) {
            armed.addAll(change.armed());
            disarmed.addAll(change.disarmed());
        }
        return new ScheduleChange(armed, disarmed);
    }
}
