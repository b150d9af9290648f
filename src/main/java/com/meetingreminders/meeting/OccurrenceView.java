package com.meetingreminders.meeting;

import com.meetingreminders.meeting.MeetingView.ReminderState;
import java.time.Instant;
import java.util.List;

/**
 * One occurrence of a meeting: {@code occurrence} its original start (RECURRENCE-ID), {@code startsAt} where it takes
 * place, its status and its reminders.
 */
public record OccurrenceView(Instant occurrence, Instant startsAt, Status status, List<ReminderState> reminders) {

    /** Where an occurrence stands. */
    public enum Status {
        SCHEDULED,
        MOVED,
        CANCELLED
    }

    /** A page of a meeting's occurrences in order. */
    public record Page(List<OccurrenceView> items, int page, int size, long total) {}
}
