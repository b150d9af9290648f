package com.meetingreminders.reminder;

import com.meetingreminders.timer.ReminderRef;
import java.util.ArrayList;
import java.util.List;

/**
 * What a committed change to a meeting means for its timers: reminders to arm and reminders to disarm; and how many new
 * reminders were SKIPPED at once because the meeting had started, which only the metrics count.
 */
public record ScheduleChange(List<ReminderRef> armed, List<ReminderRef> disarmed, int skipped) {

    public ScheduleChange(List<ReminderRef> armed, List<ReminderRef> disarmed) {
        this(armed, disarmed, 0);
    }

    boolean isEmpty() {
        return armed.isEmpty() && disarmed.isEmpty() && skipped == 0;
    }

    static ScheduleChange merge(List<ScheduleChange> changes) {
        List<ReminderRef> armed = new ArrayList<>();
        List<ReminderRef> disarmed = new ArrayList<>();
        int skipped = 0;
        for (ScheduleChange change : changes) {
            armed.addAll(change.armed());
            disarmed.addAll(change.disarmed());
            skipped += change.skipped();
        }
        return new ScheduleChange(armed, disarmed, skipped);
    }
}
