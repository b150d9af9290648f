package com.meetingreminders.delivery;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.background.GuardedLoop;
import com.meetingreminders.background.Waiter;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.reminder.ArmingOutcome;
import com.meetingreminders.reminder.DeliveryPath;
import com.meetingreminders.reminder.ReminderMetrics;
import com.meetingreminders.timer.ReminderTimers;
import com.meetingreminders.timer.Sweep;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;

/**
 * The sweep path: takes due entries off the schedule at least every {@code reminders.sweeper.interval}, and sooner
 * when the next entry falls due or a reminder is armed already due. It is what bounds lateness, whatever happens to
 * expiration events.
 */
@ApplicationScoped
public class Sweeper {

    private final ReminderTimers timers;
    private final Dispatcher dispatcher;
    private final Reconciler reconciler;
    private final DeliveryPause pause;
    private final ReminderMetrics metrics;
    private final Duration interval;
    private final Duration grace;
    private final int batchSize;
    private final Duration spacing;
    /** When the last sweep that took reminders, and not a full batch, started ({@link System#nanoTime()}). */
    private long lastTookSome = System.nanoTime() - Duration.ofDays(1).toNanos();

    private final Waiter waiter = new Waiter();
    private final GuardedLoop loop;

    Sweeper(
            ReminderTimers timers,
            Dispatcher dispatcher,
            Reconciler reconciler,
            DeliveryPause pause,
            ReminderMetrics metrics,
            BackgroundWork background,
            RemindersConfig config) {
        this.pause = pause;
        this.metrics = metrics;
        this.timers = timers;
        this.dispatcher = dispatcher;
        this.reconciler = reconciler;
        this.interval = config.sweeper().interval();
        this.grace = config.sweeper().grace();
        this.batchSize = config.sweeper().batchSize();
        this.spacing = config.sweeper().spacing();
        this.loop = background.loop(Sweeper.class, "reminder-sweeper", this::sweepOnce, interval, waiter::wake);
    }

    void start() {
        loop.start();
    }

    /** Sweeps now instead of at the next due time. */
    public void wake() {
        waiter.wake();
    }

    /** A reminder armed already due is swept now, not at the next due time. */
    void afterArming(@Observes ArmingOutcome outcome) {
        if (outcome == ArmingOutcome.DUE_NOW) {
            wake();
        }
    }

    /** Without slots, a sweep waits for a round to end rather than for the next interval. */
    void afterRound(@Observes SlotsFreed freed) {
        wake();
    }

    private void sweepOnce() throws InterruptedException {
        awaitSpacing();
        long started = System.nanoTime();
        // While paused, a sweep takes nothing (what is due stays on the schedule) but still arms triggers and notices a
        // Redis that lost our keys.
        boolean paused = pause.pausedHere();
        Dispatcher.Taken<Sweep> taken =
                dispatcher.take(paused ? 0 : batchSize, timers::sweep, Sweep::taken, DeliveryPath.SWEEP);
        Sweep sweep = taken.reply();
        int slots = taken.slots();
        metrics.heldByPause(paused ? sweep.dueLeft() : 0);
        reconciler.afterSweep(sweep.reconciled());
        if (!sweep.taken().isEmpty()) {
            Log.debugf("Swept %d due reminders", sweep.taken().size());
        }
        if (slots > 0 && sweep.taken().size() == slots) {
            return; // more may be due
        }
        if (!sweep.taken().isEmpty()) {
            lastTookSome = started;
        }
        // Without slots, the end of a round (SlotsFreed) wakes the sweeper sooner.
        Duration wait = slots == 0
                ? interval
                : sweep.untilNextTakeable(grace)
                        .filter(untilTakeable -> untilTakeable.compareTo(interval) < 0)
                        .orElse(interval);
        waiter.await(wait);
    }

    /**
     * A round costs about the same for one reminder as for a hundred (its transaction, statements and Redis calls), so
     * a sweep right after one that took a few waits out the spacing, however often it is woken: lone reminders are
     * still taken the moment they fall due, and a steady stream waits at most the spacing, in rounds the replica can
     * keep up with. A full batch is followed at once, as before.
     */
    private void awaitSpacing() throws InterruptedException {
        long left;
        while ((left = spacing.toNanos() - (System.nanoTime() - lastTookSome)) > 0) {
            waiter.await(Duration.ofNanos(left));
        }
    }
}
