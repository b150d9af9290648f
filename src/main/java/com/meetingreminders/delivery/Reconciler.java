package com.meetingreminders.delivery;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.background.FailureLog;
import com.meetingreminders.reminder.ArmingOutcome;
import com.meetingreminders.reminder.Reminder;
import com.meetingreminders.timer.KeyspaceNotifications;
import com.meetingreminders.timer.ReminderTimers;
import com.meetingreminders.timer.ScheduleEntry;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Rebuilds Redis from the database, the source of truth. Everything SCHEDULED is armed again when Redis has lost our
 * keys (the reconciled marker is gone) or an arm failed; overdue reminders are armed again periodically, which also
 * catches a replica that died between a commit and its arm. Arming keeps entries already in Redis as they are.
 */
@ApplicationScoped
public class Reconciler {

    private static final int PAGE_SIZE = 5_000;
    private static final Duration LOCK_TIME = Duration.ofMinutes(1);
    /** A failed full run is not tried again sooner, however often sweeps ask. */
    private static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(1);

    private final ReminderTimers timers;
    private final KeyspaceNotifications notifications;
    private final Clock clock;
    private final AtomicBoolean armFailed = new AtomicBoolean();
    private final AtomicBoolean fullRunQueued = new AtomicBoolean();
    private final FailureLog fullRunFailures =
            new FailureLog(Reconciler.class, "Arming every scheduled reminder from the database");
    private final FailureLog overdueFailures = new FailureLog(Reconciler.class, "Arming overdue reminders");
    private volatile Instant nextFullRunNotBefore = Instant.MIN;
    private final ExecutorService worker;

    Reconciler(ReminderTimers timers, KeyspaceNotifications notifications, Clock clock, BackgroundWork background) {
        this.timers = timers;
        this.notifications = notifications;
        this.clock = clock;
        this.worker = background.worker("reminder-reconciler");
    }

    /** Redis may lack reminders the database has: arm them all once Redis answers again. */
    void afterArming(@Observes ArmingOutcome outcome) {
        if (outcome == ArmingOutcome.FAILED) {
            armFailed.set(true);
        }
    }

    /** After every sweep that reached Redis: a missing marker means Redis lost our keys. */
    void afterSweep(boolean reconciled) {
        if (!reconciled || armFailed.get()) {
            requestFullRun();
        }
    }

    void requestFullRun() {
        if (clock.instant().isBefore(nextFullRunNotBefore) || !fullRunQueued.compareAndSet(false, true)) {
            return;
        }
        worker.execute(() -> {
            try {
                armEverythingScheduled();
                fullRunFailures.succeeded();
            } catch (RuntimeException e) {
                fullRunFailures.failed(e);
                nextFullRunNotBefore = clock.instant().plus(PAUSE_AFTER_FAILURE);
            } finally {
                fullRunQueued.set(false);
            }
        });
    }

    /** Arms every SCHEDULED reminder, unless another replica is doing it right now. */
    void armEverythingScheduled() {
        String owner = UUID.randomUUID().toString();
        if (!timers.tryLockReconcile(owner, LOCK_TIME)) {
            return;
        }
        try {
            // Cleared before reading: an arm that fails during the walk sets it again and brings another run.
            armFailed.set(false);
            notifications.apply();
            long armed = Reminder.forEachScheduledPage(PAGE_SIZE, timers::arm);
            timers.markReconciled();
            Log.infof("Armed %d scheduled reminders from the database", armed);
        } finally {
            timers.unlockReconcile(owner);
        }
    }

    /** Arms overdue SCHEDULED reminders that Redis may lack; those it has keep their leases and backoffs. */
    @Scheduled(
            every = "${reminders.reconcile.interval}",
            delayed = "${reminders.reconcile.interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void armOverdue() {
        try {
            List<ScheduleEntry> overdue =
                    QuarkusTransaction.requiringNew().call(() -> Reminder.listOverdue(clock.instant(), PAGE_SIZE));
            if (!overdue.isEmpty()) {
                timers.arm(overdue);
            }
            overdueFailures.succeeded();
        } catch (RuntimeException e) {
            overdueFailures.failed(e);
        }
    }
}
