package com.meetingreminders.meeting;

import com.meetingreminders.reminder.ReminderPlanner;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Moves the rolling horizon of series forward, on every replica. Each pass takes a few series whose {@code extendAt}
 * has come, locked with SKIP LOCKED so that replicas share them out, plans their next occurrences and advances
 * {@code plannedUntil} in the same transaction: a replica that dies mid-way rolls back and leaves the series to the
 * next pass, and one row per (meeting, send time) means nothing is planned twice.
 */
@ApplicationScoped
class HorizonStep {

    /** Series per transaction: short transactions, so a change of a meeting never waits long on the step. */
    static final int SERIES_PER_PASS = 50;

    private final ReminderPlanner planner;
    private final MeetingOccurrences occurrences;
    private final Clock clock;

    HorizonStep(ReminderPlanner planner, MeetingOccurrences occurrences, Clock clock) {
        this.planner = planner;
        this.occurrences = occurrences;
        this.clock = clock;
    }

    @Scheduled(
            every = "${reminders.recurrence.extend-interval}",
            delayed = "${reminders.recurrence.extend-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void extendDue() {
        try {
            while (QuarkusTransaction.requiringNew().call(this::extendPass) == SERIES_PER_PASS) {
                // A full pass: there may be more due right now.
            }
        } catch (RuntimeException e) {
            Log.warnf("Extending the horizon of series failed, trying again next time: %s", e.getMessage());
        }
    }

    /** One transaction: returns how many series it extended. */
    int extendPass() {
        Instant now = clock.instant();
        List<Meeting> due = Meeting.dueForExtension(now, SERIES_PER_PASS);
        // The lock's query cannot fetch them (a row lock with a limit): one query more for the whole pass.
        Meeting.loadMovedOccurrences(due);
        for (Meeting meeting : due) {
            Instant from = meeting.plannedUntil == null ? now : meeting.plannedUntil;
            planner.extend(
                    meeting.id,
                    meeting.remindBefore.stream().map(Duration::parse).toList(),
                    occurrences.toPlan(meeting, from, now),
                    now);
        }
        return due.size();
    }
}
