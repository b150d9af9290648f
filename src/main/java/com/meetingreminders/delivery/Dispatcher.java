package com.meetingreminders.delivery;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.reminder.DeliveryPath;
import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.ReminderTimers;
import com.meetingreminders.timer.Settlement;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one delivery path that events and sweeps share. It bounds the delivery rounds under way to
 * {@code reminders.delivery.rounds-in-flight} (each holds a database connection until it has recorded its outcomes),
 * runs their database work on its own workers, never on Redisson's threads, and bounds the reminders a replica holds:
 * the paths reserve slots before they take entries from Redis, so that what this replica cannot deliver soon stays in
 * Redis for another.
 */
@ApplicationScoped
public class Dispatcher {

    private final DeliveryRound round;
    private final ReminderTimers timers;
    private final int batchSize;
    private final int roundsInFlight;
    private final Semaphore slots;
    private final ExecutorService workers;
    /** Rounds waiting for room, oldest first; guarded by this. */
    private final Deque<Batch> waiting = new ArrayDeque<>();
    /** Rounds under way; guarded by this. */
    private int inFlight;
    /** Once stopping, nothing new starts; guarded by this. */
    private boolean stopping;

    private volatile Runnable slotsFreed = () -> {};

    Dispatcher(DeliveryRound round, ReminderTimers timers, RemindersConfig config) {
        this.round = round;
        this.timers = timers;
        this.batchSize = config.delivery().batchSize();
        this.roundsInFlight = config.delivery().roundsInFlight();
        // One round under way and one waiting per place: never idle, and little waits on a busy replica.
        this.slots = new Semaphore(2 * roundsInFlight * batchSize);
        this.workers = Executors.newFixedThreadPool(config.delivery().workers(), namedThreads("reminder-delivery-"));
    }

    /** The sweeper asks to be woken when slots free up, so that a busy replica sweeps again as soon as it can. */
    void onSlotsFreed(Runnable listener) {
        this.slotsFreed = listener;
    }

    /** Reserves up to {@code wanted} slots without waiting; returns how many it got. */
    int reserve(int wanted) {
        while (true) {
            int granted = Math.min(wanted, slots.availablePermits());
            if (granted <= 0) {
                return 0;
            }
            if (slots.tryAcquire(granted)) {
                return granted;
            }
        }
    }

    /** Returns reserved slots that were not used. */
    void release(int count) {
        if (count > 0) {
            slots.release(count);
        }
    }

    /** Delivers reminders this replica holds, one slot reserved for each. */
    void dispatch(List<ReminderRef> held, DeliveryPath path) {
        List<Batch> batches = new ArrayList<>();
        for (int from = 0; from < held.size(); from += batchSize) {
            batches.add(new Batch(List.copyOf(held.subList(from, Math.min(held.size(), from + batchSize))), path));
        }
        boolean refused;
        synchronized (this) {
            refused = stopping;
            if (!refused) {
                waiting.addAll(batches);
            }
        }
        if (refused) {
            handBack(held);
            release(held.size());
            return;
        }
        startWhatFits();
    }

    private void startWhatFits() {
        List<Batch> starting = new ArrayList<>();
        synchronized (this) {
            while (!stopping && inFlight < roundsInFlight && !waiting.isEmpty()) {
                starting.add(waiting.poll());
                inFlight++;
            }
        }
        starting.forEach(this::start);
    }

    private void start(Batch batch) {
        CompletableFuture.supplyAsync(() -> round.deliver(batch.held(), batch.path(), workers), workers)
                .thenCompose(delivered -> delivered)
                .whenComplete((ignored, error) -> {
                    if (error != null) {
                        Log.warnf("A delivery round ended abnormally: %s", error.toString());
                    }
                    roundEnded(batch.held().size());
                });
    }

    /** A round ended: its place and slots are free, the next waiting round starts, a sweeper waiting for room goes on. */
    private void roundEnded(int reminders) {
        synchronized (this) {
            inFlight--;
            notifyAll();
        }
        release(reminders);
        slotsFreed.run();
        startWhatFits();
    }

    /**
     * Stops taking work: rounds that have not started go back to the schedule, due at once for the other replicas;
     * rounds under way finish within {@code patience}.
     */
    void stop(Duration patience) throws InterruptedException {
        List<ReminderRef> notStarted = new ArrayList<>();
        synchronized (this) {
            stopping = true;
            waiting.forEach(batch -> notStarted.addAll(batch.held()));
            waiting.clear();
        }
        if (!notStarted.isEmpty()) {
            handBack(notStarted);
            release(notStarted.size());
            Log.infof("Handed back %d reminders that had not been sent yet", notStarted.size());
        }
        long deadline = System.nanoTime() + patience.toNanos();
        synchronized (this) {
            long left;
            while (inFlight > 0 && (left = deadline - System.nanoTime()) > 0) {
                wait(Math.max(1, left / 1_000_000));
            }
            if (inFlight > 0) {
                Log.warnf(
                        "%d delivery rounds still under way after %s; their leases will hand them to other replicas",
                        inFlight, patience);
                return;
            }
        }
        workers.shutdown();
    }

    private void handBack(List<ReminderRef> refs) {
        try {
            timers.settle(refs.stream()
                    .map(ref -> Settlement.dueAgainIn(ref, Duration.ZERO))
                    .toList());
        } catch (RuntimeException e) {
            Log.warnf("Could not hand back %d reminders (%s); their leases will", refs.size(), e.getMessage());
        }
    }

    private record Batch(List<ReminderRef> held, DeliveryPath path) {}

    private static ThreadFactory namedThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
