package com.meetingreminders.reminder;

import com.meetingreminders.timer.ReminderRef;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Keeps a meeting's reminder rows in line with its start and remindBefore, inside the transaction that changes the
 * meeting, and records what the change means for the timers, which are changed after the commit.
 */
@ApplicationScoped
public class ReminderPlanner {

    /** Cancelled reminders that never went out, kept per meeting to show what a change cancelled. */
    static final int MOST_UNSENT_CANCELLED = 100;

    private final PendingTimers timers;

    ReminderPlanner(PendingTimers timers) {
        this.timers = timers;
    }

    /**
     * One reminder per occurrence and remindBefore item, at {@code occurrence start - remindBefore}. An unsent reminder
     * whose send time is no longer wanted is CANCELLED; one whose send time is still wanted stays as it is, as does a
     * reminder already delivered, failed or skipped. A new reminder whose time has passed is sent at once, or SKIPPED if
     * its occurrence has started. Returns the meeting's rows and what changed: the reminders scheduled anew and those
     * cancelled. Refuses, with {@link ReminderCollision}, occurrences two of whose reminders fall at one instant.
     */
    public ReminderPlan replan(
            UUID meetingId, List<Duration> remindBefore, List<PlannedOccurrence> occurrences, Instant now) {
        return planLocked(meetingId, remindBefore, occurrences, now, true);
    }

    /**
     * Plans the reminders of a meeting being created: there is nothing to lock yet. The rows are neither stored nor
     * armed: the caller writes them with its meeting's and arms them once they are committed (see {@link
     * NewReminderRows}).
     */
    public ReminderPlan planNew(
            UUID meetingId, List<Duration> remindBefore, List<PlannedOccurrence> occurrences, Instant now) {
        return plan(meetingId, List.of(), remindBefore, occurrences, now, true, unstored -> {});
    }

    /**
     * Adds the reminders of occurrences further along a series' horizon; nothing planned before is touched. The caller
     * holds the meeting's row lock, so this never runs beside a change of the same meeting.
     */
    public ReminderPlan extend(
            UUID meetingId, List<Duration> remindBefore, List<PlannedOccurrence> occurrences, Instant now) {
        return planLocked(meetingId, remindBefore, occurrences, now, false);
    }

    /**
     * Refuses, with {@link ReminderCollision}, two of these occurrences (by start) that would have a reminder at one
     * instant: one row per send time, its deliveryId.
     */
    public static void refuseCollisions(List<Duration> remindBefore, List<PlannedOccurrence> occurrences) {
        Map<Instant, Instant> wanted = new HashMap<>();
        for (PlannedOccurrence occurrence : occurrences) {
            for (Duration before : remindBefore) {
                Instant sendAt = occurrence.startsAt().minus(before);
                Instant other = wanted.putIfAbsent(sendAt, occurrence.occurrence());
                if (other != null) {
                    throw new ReminderCollision(sendAt, other, occurrence.occurrence());
                }
            }
        }
    }

    /**
     * Plans against the meeting's rows, locked; new rows go into this transaction's session, and the timers change
     * after its commit.
     */
    private ReminderPlan planLocked(
            UUID meetingId,
            List<Duration> remindBefore,
            List<PlannedOccurrence> occurrences,
            Instant now,
            boolean byCaller) {
        ReminderPlan plan = plan(
                meetingId,
                Reminder.lockForMeeting(meetingId),
                remindBefore,
                occurrences,
                now,
                byCaller,
                reminder -> reminder.persist());
        timers.add(plan.change());
        return plan;
    }

    private ReminderPlan plan(
            UUID meetingId,
            List<Reminder> rows,
            List<Duration> remindBefore,
            List<PlannedOccurrence> occurrences,
            Instant now,
            boolean byCaller,
            Consumer<Reminder> newRow) {
        Map<Instant, Reminder> existing = rows.stream().collect(Collectors.toMap(r -> r.sendAt, Function.identity()));
        List<Reminder> planned = new ArrayList<>(rows);
        List<ReminderRef> armed = new ArrayList<>();
        int skipped = 0;
        if (byCaller) {
            refuseCollisions(remindBefore, occurrences);
        }
        Map<Instant, Instant> wanted = new HashMap<>();
        for (PlannedOccurrence occurrence : occurrences) {
            ReminderStatus fresh =
                    occurrence.startsAt().isAfter(now) ? ReminderStatus.SCHEDULED : ReminderStatus.SKIPPED;
            for (Duration before : remindBefore) {
                Instant sendAt = occurrence.startsAt().minus(before);
                // One row per send time (its deliveryId): two occurrences cannot both have a reminder at one instant.
                Instant other = wanted.putIfAbsent(sendAt, occurrence.occurrence());
                if (other != null) {
                    // Only the horizon step gets here, which has no caller to refuse: the earlier occurrence, planned
                    // first, keeps it.
                    Log.warnf(
                            "Meeting %s: occurrences %s and %s both have a reminder at %s; only the first is sent",
                            meetingId, other, occurrence.occurrence(), sendAt);
                    continue;
                }
                Reminder reminder = existing.get(sendAt);
                if (reminder == null) {
                    reminder = new Reminder(meetingId, occurrence.occurrence(), sendAt, before, fresh);
                    newRow.accept(reminder);
                    planned.add(reminder);
                } else if (reminder.status == ReminderStatus.CANCELLED) {
                    reminder.occurrence = occurrence.occurrence();
                    reminder.remindBefore = before.toString();
                    reminder.reschedule(fresh);
                } else {
                    reminder.occurrence = occurrence.occurrence();
                    reminder.remindBefore = before.toString();
                    continue;
                }
                if (reminder.isScheduled()) {
                    armed.add(new ReminderRef(meetingId, sendAt));
                } else {
                    skipped++;
                }
            }
        }
        List<ReminderRef> disarmed = new ArrayList<>();
        for (Reminder reminder : existing.values()) {
            if (byCaller && reminder.isScheduled() && !wanted.containsKey(reminder.sendAt)) {
                reminder.status = ReminderStatus.CANCELLED;
                disarmed.add(reminder.ref());
            }
        }
        if (byCaller) {
            forgetUnsentCancelled(planned);
        }
        return new ReminderPlan(planned, new ScheduleChange(armed, disarmed, skipped));
    }

    /**
     * Deletes the meeting's cancelled reminders that no send ever reached beyond the {@link #MOST_UNSENT_CANCELLED}
     * latest by send time: each change of a schedule cancels rows and makes new ones, and every read and change of the
     * meeting loads its rows, so that rows kept for ever would let a caller who moves a meeting again and again make it
     * as slow and as large as they like. A deleted row's timer, if it still fires, finds nothing to send, as for a
     * deleted meeting; one that a send reached stays, as the record of what went out.
     */
    private static void forgetUnsentCancelled(List<Reminder> planned) {
        List<Reminder> cancelled = planned.stream()
                .filter(reminder -> reminder.status == ReminderStatus.CANCELLED && reminder.attempts == 0)
                .sorted(Comparator.comparing((Reminder reminder) -> reminder.sendAt)
                        .reversed())
                .toList();
        if (cancelled.size() <= MOST_UNSENT_CANCELLED) {
            return;
        }
        Set<Long> unsent = Reminder.reachedNothing(
                cancelled.stream().map(reminder -> reminder.id).toList());
        List<Reminder> forgettable = cancelled.stream()
                .filter(reminder -> unsent.contains(reminder.id))
                .toList();
        for (Reminder forgotten :
                forgettable.subList(Math.min(forgettable.size(), MOST_UNSENT_CANCELLED), forgettable.size())) {
            forgotten.delete();
            planned.remove(forgotten);
        }
    }

    /** The meeting is going away: every unsent reminder is cancelled with it. */
    public ReminderPlan cancelAll(UUID meetingId) {
        List<Reminder> rows = Reminder.lockForMeeting(meetingId);
        List<ReminderRef> disarmed = new ArrayList<>();
        for (Reminder reminder : rows) {
            if (reminder.isScheduled()) {
                reminder.status = ReminderStatus.CANCELLED;
                disarmed.add(reminder.ref());
            }
        }
        ScheduleChange change = new ScheduleChange(List.of(), disarmed);
        timers.add(change);
        return new ReminderPlan(rows, change);
    }

    /**
     * Schedules a FAILED reminder again, due at once, with fresh attempts; its deliveryId stays what it was, since it is
     * made of the meeting and the send time. A reminder in another state is left as it is, and false returned.
     */
    public boolean retry(Reminder reminder) {
        if (reminder.status != ReminderStatus.FAILED) {
            return false;
        }
        reminder.reschedule(ReminderStatus.SCHEDULED);
        Reminder.forgetFailureNotice(reminder.id);
        // Armed at its send time, which has passed: due at once, taken by the next sweep after the commit.
        timers.add(new ScheduleChange(List.of(reminder.ref()), List.of()));
        return true;
    }
}
