package com.meetingreminders.reminder;

import java.util.List;

/** A meeting's reminder rows once planned, and what planning changed for their timers. */
public record ReminderPlan(List<Reminder> reminders, ScheduleChange change) {}
