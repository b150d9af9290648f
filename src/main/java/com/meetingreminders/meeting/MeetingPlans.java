package com.meetingreminders.meeting;

import com.meetingreminders.limits.CallerUsage;
import com.meetingreminders.limits.UsageChange;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.reminder.ReminderPlan;
import com.meetingreminders.reminder.ReminderPlanner;
import com.meetingreminders.reminder.ScheduleChange;
import com.meetingreminders.timer.ReminderRef;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Plans a meeting's reminders when it is created (before its rows are written) or inside the transaction that changes
 * it, and counts what the plan changed toward its owner's fair-use limits: one place for the create, a change of the
 * meeting and a change of one occurrence. Each refuses, with {@link com.meetingreminders.reminder.ReminderCollision},
 * two occurrences that would share a reminder.
 */
@ApplicationScoped
class MeetingPlans {

    private final ReminderPlanner planner;
    private final MeetingOccurrences occurrences;
    private final CallerUsage callerUsage;
    private final Clock clock;

    MeetingPlans(ReminderPlanner planner, MeetingOccurrences occurrences, CallerUsage callerUsage, Clock clock) {
        this.planner = planner;
        this.occurrences = occurrences;
        this.callerUsage = callerUsage;
        this.clock = clock;
    }

    /** Plans the reminders of a meeting being created; the usage is charged once for the whole create. */
    ReminderPlan planNew(Meeting meeting, Instant now, UsageChange usage) {
        MeetingOccurrences.checkMoves(meeting, now);
        ReminderPlanner.refuseCollisions(remindBefore(meeting), occurrences.firstWindow(meeting, meeting.startsAt));
        ReminderPlan plan = planner.planNew(
                meeting.id, remindBefore(meeting), occurrences.toPlan(meeting, meeting.startsAt, now), now);
        usage.meetingCreated();
        count(usage, meeting, plan, meeting.attendees.size());
        return plan;
    }

    /**
     * Plans the meeting's reminders again after a change, and counts it toward the owner's limits. A series plans again
     * from now on: occurrences that have started keep what they had.
     */
    ReminderPlan replan(String owner, Meeting meeting, Instant now, int attendeesBefore) {
        MeetingOccurrences.checkMoves(meeting, now);
        Instant from = meeting.isSeries() ? now : meeting.startsAt;
        ReminderPlanner.refuseCollisions(remindBefore(meeting), occurrences.firstWindow(meeting, from));
        ReminderPlan plan =
                planner.replan(meeting.id, remindBefore(meeting), occurrences.toPlan(meeting, from, now), now);
        UsageChange usage = new UsageChange(now);
        count(usage, meeting, plan, attendeesBefore);
        // The version is raised on flush; the answer and its ETag show the new one.
        charge(owner, usage);
        return plan;
    }

    /**
     * Cancels every unsent reminder of a meeting about to be deleted, and counts the meeting and them as gone in the
     * usage returned, to be charged once the rows are deleted.
     */
    UsageChange cancelAll(Meeting meeting, List<Reminder> rows) {
        ReminderPlan plan = planner.cancelAll(meeting.id);
        rows.addAll(plan.reminders());
        UsageChange usage = new UsageChange(clock.instant());
        usage.meetingDeleted();
        count(usage, meeting, plan, meeting.attendees.size());
        return usage;
    }

    /**
     * Last before the commit, so that the owner's counts stay locked as briefly as they can: what the transaction
     * wrote goes to the database first.
     */
    void charge(String owner, UsageChange usage) {
        Meeting.flush();
        callerUsage.charge(owner, usage);
    }

    private static List<Duration> remindBefore(Meeting meeting) {
        return meeting.remindBefore.stream().map(Duration::parse).toList();
    }

    /**
     * Adds what the planner changed to the owner's counts: reminders planned and cancelled, and, when the attendees
     * change, the e-mails of the reminders that stay planned.
     */
    private static void count(UsageChange usage, Meeting meeting, ReminderPlan plan, int attendeesBefore) {
        ScheduleChange change = plan.change();
        int attendees = meeting.attendees.size();
        change.armed().forEach(planned -> usage.reminderPlanned(planned.sendAt(), attendees));
        change.disarmed().forEach(cancelled -> usage.reminderCancelled(cancelled.sendAt(), attendeesBefore));
        if (attendees != attendeesBefore) {
            Set<ReminderRef> planned = Set.copyOf(change.armed());
            plan.reminders().stream()
                    .filter(reminder -> reminder.isScheduled() && !planned.contains(reminder.ref()))
                    .forEach(kept -> usage.attendeesChanged(kept.sendAt, attendees - attendeesBefore));
        }
    }
}
