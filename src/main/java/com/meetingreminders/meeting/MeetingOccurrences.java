package com.meetingreminders.meeting;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.http.InvalidBody;
import com.meetingreminders.reminder.PlannedOccurrence;
import com.meetingreminders.reminder.ReminderCollision;
import com.meetingreminders.series.InvalidSeries;
import com.meetingreminders.series.Occurrences;
import com.meetingreminders.series.SeriesRule;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which occurrences of a meeting get reminder rows now: a one-off meeting its only one; a series those starting before
 * its rolling horizon ({@code reminders.recurrence.horizon} plus the longest remindBefore), recording on the meeting how
 * far it is planned and when the horizon step should plan further.
 */
@ApplicationScoped
class MeetingOccurrences {

    /** More than a horizon can hold of an hourly series with the longest remindBefore (P30D). */
    static final int MOST_PER_PLAN = 2_000;

    private final Duration horizon;

    MeetingOccurrences(RemindersConfig config) {
        this.horizon = config.recurrence().horizon();
    }

    /** The series of a meeting with recurrence; empty for a one-off. */
    static Optional<Occurrences> seriesOf(Meeting meeting) {
        if (!meeting.isSeries()) {
            return Optional.empty();
        }
        return Optional.of(new Occurrences(
                SeriesRule.parse(meeting.recurrence),
                meeting.startsAt,
                ZoneId.of(meeting.timeZone),
                Set.copyOf(meeting.cancelledOccurrences)));
    }

    /** Refuses, as a 400 naming recurrence, a series that yields no occurrence beyond its first start. */
    static void check(Meeting meeting) {
        try {
            seriesOf(meeting).ifPresent(Occurrences::check);
        } catch (InvalidSeries e) {
            throw new InvalidBody("recurrence", e.getMessage());
        }
    }

    /** The occurrences from {@code from} on that the horizon now covers; advances the meeting's planned-until mark. */
    List<PlannedOccurrence> toPlan(Meeting meeting, Instant from, Instant now) {
        Optional<Occurrences> series = seriesOf(meeting);
        if (series.isEmpty()) {
            meeting.plannedUntil = null;
            meeting.extendAt = null;
            return meeting.cancelledOccurrences.contains(meeting.startsAt)
                    ? List.of()
                    : List.of(where(meeting, meeting.startsAt));
        }
        Duration longest = longestRemindBefore(meeting);
        Instant until = now.plus(horizon).plus(longest);
        List<Instant> occurrences = series.get().between(from, until, MOST_PER_PLAN);
        if (occurrences.size() == MOST_PER_PLAN) {
            until = occurrences.get(MOST_PER_PLAN - 1).plusMillis(1);
        }
        // However far off the next occurrence is (a rule may skip years, or decades), the series is planned further.
        boolean more = !series.get().between(until, SendingReminders.LATEST, 1).isEmpty();
        meeting.plannedUntil = until;
        // Planned again once half the horizon has passed: a step that misses a few runs still leaves reminders planned.
        meeting.extendAt = more ? until.minus(longest).minus(horizon.dividedBy(2)) : null;
        return withMoves(meeting, occurrences, from, until);
    }

    /**
     * A series' first window of occurrences from {@code from}, as long as the one {@link #toPlan} plans, wherever it
     * lies: a series that starts beyond the horizon plans none at first, and a rule whose own occurrences share a
     * reminder is still refused on its first ones. Empty for a single meeting.
     */
    List<PlannedOccurrence> firstWindow(Meeting meeting, Instant from) {
        Optional<Occurrences> series = seriesOf(meeting);
        List<Instant> first = series.isEmpty() ? List.of() : series.get().between(from, SendingReminders.LATEST, 1);
        if (first.isEmpty()) {
            return List.of();
        }
        Instant until = first.get(0).plus(horizon).plus(longestRemindBefore(meeting));
        return withMoves(meeting, series.get().between(first.get(0), until, MOST_PER_PLAN), first.get(0), until);
    }

    private static Duration longestRemindBefore(Meeting meeting) {
        return meeting.remindBefore.stream()
                .map(Duration::parse)
                .max(Duration::compareTo)
                .orElse(Duration.ZERO);
    }

    /** Where an occurrence takes place: its original start, unless it was moved. */
    static PlannedOccurrence where(Meeting meeting, Instant occurrence) {
        return new PlannedOccurrence(occurrence, meeting.movedOccurrences.getOrDefault(occurrence, occurrence));
    }

    /**
     * The window's occurrences at their (possibly moved) starts, plus occurrences from outside the window moved into
     * it: an occurrence moved from next month to tomorrow is planned now, not when the horizon reaches next month.
     * Planning one twice is harmless: a send time already planned is left as it is.
     */
    private static List<PlannedOccurrence> withMoves(
            Meeting meeting, List<Instant> occurrences, Instant from, Instant until) {
        List<PlannedOccurrence> planned = new ArrayList<>();
        occurrences.forEach(occurrence -> planned.add(where(meeting, occurrence)));
        Set<Instant> inWindow = Set.copyOf(occurrences);
        meeting.movedOccurrences.forEach((occurrence, startsAt) -> {
            boolean movedIn = !startsAt.isBefore(from) && startsAt.isBefore(until);
            if (movedIn && !inWindow.contains(occurrence) && !meeting.cancelledOccurrences.contains(occurrence)) {
                planned.add(new PlannedOccurrence(occurrence, startsAt));
            }
        });
        // By start: where two occurrences' reminders fall on one instant, a change is refused, and the horizon step
        // (which has no caller to refuse) leaves the reminder to the earlier occurrence.
        planned.sort(Comparator.comparing(PlannedOccurrence::startsAt));
        return planned;
    }

    /**
     * Refuses, as {@link ReminderCollision}, a moved occurrence one of whose reminders falls at the same instant as a
     * reminder of another occurrence, however far beyond the horizon both are: the planner sees only the horizon. Two
     * reminders meet only if their occurrences start less than the longest remindBefore apart, so each future move is
     * compared with the occurrences around its new start alone.
     */
    static void checkMoves(Meeting meeting, Instant now) {
        Optional<Occurrences> series = seriesOf(meeting);
        if (series.isEmpty() || meeting.movedOccurrences.isEmpty()) {
            return;
        }
        List<Duration> remindBefore =
                meeting.remindBefore.stream().map(Duration::parse).toList();
        Duration longest = remindBefore.stream().max(Duration::compareTo).orElse(Duration.ZERO);
        meeting.movedOccurrences.entrySet().stream()
                .filter(move -> move.getValue().isAfter(now))
                .filter(move -> !meeting.cancelledOccurrences.contains(move.getKey()))
                .sorted(Map.Entry.comparingByKey())
                .forEach(move -> {
                    Instant from = move.getValue().minus(longest);
                    Instant until = move.getValue().plus(longest).plusMillis(1);
                    List<Instant> near = new ArrayList<>(series.get().between(from, until, MOST_PER_PLAN));
                    near.addAll(meeting.movedOccurrences.keySet());
                    near.stream()
                            .filter(other -> !other.equals(move.getKey()))
                            .filter(other -> !meeting.cancelledOccurrences.contains(other))
                            .distinct()
                            .forEach(other -> {
                                Instant otherStart = where(meeting, other).startsAt();
                                for (Duration mine : remindBefore) {
                                    Instant sendAt = move.getValue().minus(mine);
                                    if (remindBefore.contains(Duration.between(sendAt, otherStart))) {
                                        boolean first = other.isBefore(move.getKey());
                                        throw new ReminderCollision(
                                                sendAt, first ? other : move.getKey(), first ? move.getKey() : other);
                                    }
                                }
                            });
                });
    }

    /** Whether the instant is an occurrence of the meeting by its original start, cancelled or not. */
    static boolean isOccurrence(Meeting meeting, Instant occurrence) {
        return seriesOf(meeting).map(series -> series.contains(occurrence)).orElse(meeting.startsAt.equals(occurrence));
    }
}
