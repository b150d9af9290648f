package com.meetingreminders.delivery;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.reminder.DeliveryPath;
import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.ReminderTimers;
import com.meetingreminders.timer.Settlement;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The one delivery path that events and sweeps share. It bounds the delivery rounds under way to
 * {@code reminders.delivery.rounds-in-flight} (each holds a database connection until it has recorded its outcomes),
 * runs their database work on its own workers, never on Redisson's threads, and bounds the reminders a replica holds:
 * both paths take entries from Redis through {@link #take}, which reserves slots first, so that what this replica
 * cannot deliver soon stays in Redis for another.
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

    private final Event<SlotsFreed> slotsFreed;

    Dispatcher(
            DeliveryRound round,
            ReminderTimers timers,
            Event<SlotsFreed> slotsFreed,
            BackgroundWork background,
            RemindersConfig config) {
        this.round = round;
        this.timers = timers;
        this.slotsFreed = slotsFreed;
        this.batchSize = config.delivery().batchSize();
        this.roundsInFlight = config.delivery().roundsInFlight();
        // One round under way and one waiting per place: never idle, and little waits on a busy replica.
        this.slots = new Semaphore(2 * roundsInFlight * batchSize);
        this.workers = background.pool("reminder-delivery", config.delivery().workers());
        background.onStop(this::stop);
    }

    /**
     * The slot protocol, for both paths: reserves up to {@code wanted} slots without waiting, takes at most that many
     * entries from Redis with {@code fromRedis} (called even with no slots: a sweep still arms triggers then), returns
     * every slot if Redis fails and the unused ones if it gave fewer, and delivers what this replica now holds.
     *
     * @param held the reminders the reply hands to this replica, each now under its lease
     */
    <T> Taken<T> take(int wanted, IntFunction<T> fromRedis, Function<T, List<ReminderRef>> held, DeliveryPath path) {
        int reserved = reserve(wanted);
        T reply;
        try {
            reply = fromRedis.apply(reserved);
        } catch (RuntimeException e) {
            release(reserved);
            throw e;
        }
        List<ReminderRef> taken = held.apply(reply);
        release(reserved - taken.size());
        if (!taken.isEmpty()) {
            dispatch(taken, path);
        }
        return new Taken<>(reserved, reply, taken.size());
    }

    /** What one {@link #take} got: the slots it reserved, Redis's reply and how many reminders that handed over. */
    record Taken<T>(int slots, T reply, int held) {}

    private int reserve(int wanted) {
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

    private void release(int count) {
        if (count > 0) {
            slots.release(count);
        }
    }

    /** Delivers reminders this replica holds, one slot reserved for each. */
    private void dispatch(List<ReminderRef> held, DeliveryPath path) {
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
        slotsFreed.fire(SlotsFreed.INSTANCE);
        startWhatFits();
    }

    /**
     * Stops taking work: rounds that have not started go back to the schedule, due at once for the other replicas;
     * rounds under way finish within {@code patience}. Run by {@link BackgroundWork#stop}, before it stops the workers.
     */
    private void stop(Duration patience) throws InterruptedException {
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
            }
        }
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
}
