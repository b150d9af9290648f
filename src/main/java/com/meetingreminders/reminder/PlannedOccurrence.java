package com.meetingreminders.reminder;

import java.time.Instant;

/** One occurrence of a meeting to plan reminders for: its original start (its identity) and where it takes place. */
public record PlannedOccurrence(Instant occurrence, Instant startsAt) {

    /** A meeting without recurrence: one occurrence, at its start. */
    public static PlannedOccurrence only(Instant startsAt) {
        return new PlannedOccurrence(startsAt, startsAt);
    }
}
