package com.meetingreminders.delivery;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.background.FailureLog;
import com.meetingreminders.config.DeliveryConfig;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.delivery.ReminderSender.Attempt;
import com.meetingreminders.jdbc.LocalTransaction;
import com.meetingreminders.notify.FailureNotices;
import com.meetingreminders.reminder.DeliveryPath;
import com.meetingreminders.reminder.ReminderMetrics;
import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.ReminderTimers;
import com.meetingreminders.timer.Settlement;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One delivery round: in one transaction it locks the reminders of a batch, starts the sends of each that is still
 * SCHEDULED, and once every send has ended records every outcome and commits; then it tells Redis and announces the
 * deliveries. No thread waits while the sends are out: a worker opens the transaction and starts them, another
 * records and commits when the last has ended. The row locks, held throughout, make a reschedule or delete of a
 * meeting wait for a send already under way, so nothing of an old schedule goes out after the change commits. Rounds
 * lock only their own reminders, which the lease keeps apart, so a round stuck on a slow receiver holds up no other.
 */
@ApplicationScoped
public class DeliveryRound {

    private final ReminderTimers timers;
    private final DeliveryStore store;
    private final ReminderSender sender;
    private final FailureNotices failureNotices;
    private final ReminderMetrics metrics;
    private final Clock clock;
    private final DeliveryConfig delivery;
    private final DeliveryTimeouts timeouts;
    private final Duration pauseRefresh;
    private final Tracer tracer;
    /** Where rounds tell Redis their outcomes, never on a delivery worker (see {@link #settle}). */
    private final ExecutorService settling;

    private final FailureLog failures =
            new FailureLog(DeliveryRound.class, "Delivery rounds (their reminders come due again after the backoff)");

    DeliveryRound(
            ReminderTimers timers,
            DeliveryStore store,
            ReminderSender sender,
            FailureNotices failureNotices,
            ReminderMetrics metrics,
            Clock clock,
            DeliveryTimeouts timeouts,
            Tracer tracer,
            BackgroundWork background,
            RemindersConfig config) {
        this.timers = timers;
        this.store = store;
        this.sender = sender;
        this.failureNotices = failureNotices;
        this.metrics = metrics;
        this.clock = clock;
        this.timeouts = timeouts;
        this.tracer = tracer;
        this.delivery = config.delivery();
        this.pauseRefresh = config.admin().pauseRefresh();
        // As many as there are workers, which settled a round each before: as much of Redis at once as then.
        this.settling = background.pool("reminder-settling", delivery.workers());
    }

    /**
     * Opens the round and starts its sends on the calling worker, then lets go of it; the future completes once the
     * outcomes are recorded (or the round failed, and its reminders come due again after the backoff) on one of
     * {@code workers}. It never completes exceptionally.
     */
    CompletableFuture<Void> deliver(List<ReminderRef> held, DeliveryPath path, Executor workers) {
        long started = System.nanoTime();
        RoundTrace trace = RoundTrace.begin(tracer);
        LocalTransaction transaction = null;
        Started round;
        try {
            DeliveryStore.OpenRound opened = store.open(timeouts.transaction());
            transaction = opened.transaction();
            round = start(transaction, opened.paused(), held, path, trace);
        } catch (RuntimeException e) {
            if (transaction != null) {
                transaction.close();
            }
            trace.failed(e);
            failed(held, e, trace);
            trace.end();
            return CompletableFuture.completedFuture(null);
        }
        LocalTransaction open = transaction;
        return CompletableFuture.allOf(
                        round.attempts().stream().map(Attempt::ended).toArray(CompletableFuture<?>[]::new))
                .orTimeout(timeouts.sendsWait().toMillis(), TimeUnit.MILLISECONDS)
                .handleAsync(
                        (ignored, stillOut) -> {
                            finish(open, round, path, held, trace);
                            Log.debugf(
                                    "Delivery round of %d reminders took %d ms",
                                    held.size(), (System.nanoTime() - started) / 1_000_000);
                            return null;
                        },
                        workers);
    }

    /** What a round decided before its sends, and the sends it started. */
    private record Started(List<Settlement> settlements, List<Long> skipped, List<Attempt> attempts) {}

    private Started start(
            LocalTransaction transaction, boolean paused, List<ReminderRef> held, DeliveryPath path, RoundTrace trace) {
        if (paused) {
            // Nothing is sent and nothing is lost: the reminders wait on the schedule, due again once a replica has
            // had time to read the switch again, and are then sent or skipped by the late cut-off.
            return new Started(
                    held.stream()
                            .map(ref -> Settlement.dueAgainIn(ref, pauseRefresh))
                            .toList(),
                    List.of(),
                    List.of());
        }
        Map<ReminderRef, DueReminder> rows =
                store.lock(transaction, held).stream().collect(Collectors.toMap(DueReminder::ref, Function.identity()));
        trace.locked(rows.values(), held.size(), path);
        Instant now = clock.instant();
        Started round = new Started(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<DueReminder> toSend = new ArrayList<>();
        for (ReminderRef ref : held) {
            DueReminder reminder = rows.get(ref);
            if (reminder == null) {
                // The meeting was deleted, or the entry was never ours. It goes, so it cannot come back.
                Log.infof("Dropping schedule entry %s: no such reminder", ref.id());
                round.settlements().add(Settlement.finished(ref));
            } else if (!reminder.isScheduled()) {
                // Cancelled or already delivered: a stale timer. Its entry goes, so it cannot fire again.
                round.settlements().add(Settlement.finished(ref));
            } else if (reminder.isTooLate(now, delivery.lateCutoff())) {
                round.skipped().add(reminder.id());
                round.settlements().add(Settlement.finished(ref));
                Log.infof(
                        "Skipped reminder %s: its meeting has started and it is %s late",
                        ref.id(), Duration.between(ref.sendAt(), now));
            } else if (reminder.isWaitingForRetry(now)) {
                // Taken before its next attempt (a lease that ran out during a slow attempt, a re-arm): not yet.
                round.settlements().add(Settlement.dueAgainIn(ref, Duration.between(now, reminder.nextAttemptAt())));
            } else {
                toSend.add(reminder);
            }
        }
        round.attempts().addAll(sender.send(toSend, trace::reminder));
        return round;
    }

    /** Records every outcome and commits; then Redis, the channels, the metrics and the log hear of it. */
    private void finish(
            LocalTransaction transaction, Started round, DeliveryPath path, List<ReminderRef> held, RoundTrace trace) {
        try {
            finishTraced(transaction, round, path, held, trace);
        } finally {
            trace.end();
        }
    }

    private void finishTraced(
            LocalTransaction transaction, Started round, DeliveryPath path, List<ReminderRef> held, RoundTrace trace) {
        RoundOutcome outcome;
        try (transaction) {
            outcome = RoundOutcome.of(round.attempts(), clock, delivery, this::backoffAfter);
            long recording = RoundTrace.now();
            store.delivered(transaction, outcome.deliveredIds(), clock.instant());
            store.skipped(transaction, round.skipped());
            store.failed(transaction, outcome.failures());
            transaction.commit();
            trace.recorded(recording);
        } catch (RuntimeException e) {
            trace.failed(e);
            failed(held, e, trace);
            return;
        }
        failures.succeeded();
        List<Settlement> settlements = new ArrayList<>(round.settlements());
        settlements.addAll(outcome.settlements());
        // An owner who retries as soon as the failure notice comes would otherwise find the entry still leased, and
        // its retry's arm then undone by this round's settle: the notice goes once Redis has heard of the failure.
        settle(settlements, trace, () -> failureNotices.reminderFailed(outcome.finalFailures()));
        sender.delivered(outcome.delivered().stream()
                .map(RoundOutcome.Delivered::message)
                .toList());
        metrics.skipped(round.skipped().size());
        metrics.failed(outcome.finalFailures().size());
        for (RoundOutcome.Delivered delivered : outcome.delivered()) {
            metrics.delivered(path, delivered.lateness());
            delivered.log(path);
        }
    }

    /** Nothing was recorded: the reminders stay SCHEDULED and come due again after a pause. */
    private void failed(List<ReminderRef> held, RuntimeException e, RoundTrace trace) {
        failures.failed(e);
        settle(
                held.stream()
                        .map(ref -> Settlement.dueAgainIn(ref, delivery.backoff()))
                        .toList(),
                trace,
                () -> {});
    }

    Duration backoffAfter(int attemptsMade) {
        return backoffAfter(attemptsMade, delivery.backoff(), delivery.maxBackoff());
    }

    /** The delay after {@code attemptsMade} failed attempts: the first backoff, doubled per further attempt, capped. */
    static Duration backoffAfter(int attemptsMade, Duration first, Duration cap) {
        Duration delay = first.multipliedBy(1L << Math.min(attemptsMade - 1, 20));
        return delay.compareTo(cap) > 0 ? cap : delay;
    }

    /**
     * Tells Redis what became of the round's entries, on a thread of its own, after the commit. A delivery worker never
     * waits on Redis: while Redis hangs (stopped, not down, so each call waits out its timeout and a retry), a worker
     * blocked there would hold up the commits of the rounds queued behind it until their transactions' idle limit
     * ended them, and their reminders, sent but not recorded, would go out again. Redis is told late instead; until
     * then the entries stay leased, and dispatch drops the finished ones if their leases end first. {@code then} runs
     * once Redis has answered or failed.
     */
    private void settle(Collection<Settlement> settlements, RoundTrace trace, Runnable then) {
        try {
            settling.execute(() -> {
                try (Scope ignored = trace.current()) {
                    timers.settle(settlements);
                } catch (RuntimeException e) {
                    Log.warnf("Could not settle %d schedule entries in Redis: %s", settlements.size(), e.getMessage());
                }
                then.run();
            });
        } catch (RejectedExecutionException stopping) {
            // The replica is stopping: the entries come back when their leases end, and dispatch drops the finished;
            // failure notices owed are sent by another replica's pass.
            Log.debugf("%d schedule entries left to their leases at stop", settlements.size());
        }
    }
}
