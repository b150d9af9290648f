package com.meetingreminders.reminder;

import com.meetingreminders.background.FailureLog;
import com.meetingreminders.timer.ReminderTimers;
import com.meetingreminders.timer.ScheduleEntry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

/**
 * Arms and disarms timers once the transaction that changed schedules has committed (see {@link PendingTimers}),
 * before the request answers, so that a timer never exists for a change that rolled back.
 */
@ApplicationScoped
class ReminderArming {

    private final ReminderTimers timers;
    private final Event<ArmingOutcome> outcomes;
    private final FailureLog failures = new FailureLog(ReminderArming.class, "Arming and disarming after commit");

    ReminderArming(ReminderTimers timers, Event<ArmingOutcome> outcomes) {
        this.timers = timers;
        this.outcomes = outcomes;
    }

    void afterCommit(ScheduleChange change) {
        if (change.isEmpty()) {
            return;
        }
        try {
            // Disarm first: a reschedule back to an earlier send time arms the same member again.
            if (!change.disarmed().isEmpty()) {
                timers.disarm(change.disarmed());
            }
            if (!change.armed().isEmpty()
                    && timers.arm(change.armed().stream()
                                    .map(ScheduleEntry::atSendTime)
                                    .toList())
                            > 0) {
                outcomes.fire(ArmingOutcome.DUE_NOW);
            }
            failures.succeeded();
        } catch (RuntimeException e) {
            // The database has the change. A timer that should have gone fires and is dropped by dispatch; one that
            // is missing is armed by reconciliation as soon as Redis answers.
            failures.failed(e);
            outcomes.fire(ArmingOutcome.FAILED);
        }
    }
}
