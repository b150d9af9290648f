package com.meetingreminders.reminder;

import com.meetingreminders.config.RemindersConfig;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one delivery path that events and sweeps share. It runs delivery rounds on its own workers, never on Redisson's
 * threads, and bounds the reminders a replica holds: the paths reserve slots before they take entries from Redis,
 * so that what this replica cannot deliver soon stays in Redis for another.
 */
@ApplicationScoped
public class Dispatcher {

    private final DeliveryRound round;
    private final ReminderTimers timers;
    private final int batchSize;
    private final Semaphore slots;
    private final ThreadPoolExecutor workers;
    private volatile Runnable slotsFreed = () -> {};

    Dispatcher(DeliveryRound round, ReminderTimers timers, RemindersConfig config) {
        this.round = round;
        this.timers = timers;
        this.batchSize = config.delivery().batchSize();
        int workerCount = config.delivery().workers();
        // One round under way and one waiting per worker: the workers never idle, and little waits on a busy replica.
        this.slots = new Semaphore(2 * workerCount * batchSize);
        this.workers = new ThreadPoolExecutor(
                workerCount,
                workerCount,
                0,
                TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(),
                namedThreads("reminder-delivery-"));
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

    /** A round ended: its slots are free, and a sweeper waiting for room may go on. */
    private void roundEnded(int count) {
        release(count);
        slotsFreed.run();
    }

    /** Delivers reminders this replica holds, one slot reserved for each. */
    void dispatch(List<ReminderRef> held, DeliveryPath path) {
        for (int from = 0; from < held.size(); from += batchSize) {
            List<ReminderRef> batch = List.copyOf(held.subList(from, Math.min(held.size(), from + batchSize)));
            try {
                workers.execute(new Round(batch, path));
            } catch (RejectedExecutionException stopping) {
                handBack(batch);
                roundEnded(batch.size());
            }
        }
    }

    /**
     * Stops taking work: rounds that have not started go back to the schedule, due at once for the other replicas;
     * rounds under way finish within {@code patience}.
     */
    void stop(Duration patience) throws InterruptedException {
        List<Runnable> waiting = new ArrayList<>();
        workers.getQueue().drainTo(waiting);
        workers.shutdown();
        List<ReminderRef> notStarted = new ArrayList<>();
        waiting.forEach(round -> notStarted.addAll(((Round) round).held));
        if (!notStarted.isEmpty()) {
            handBack(notStarted);
            Log.infof("Handed back %d reminders that had not been sent yet", notStarted.size());
        }
        if (!workers.awaitTermination(patience.toMillis(), TimeUnit.MILLISECONDS)) {
            Log.warnf(
                    "Delivery rounds still running after %s; their leases will hand them to other replicas", patience);
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

    private final class Round implements Runnable {
        private final List<ReminderRef> held;
        private final DeliveryPath path;

        Round(List<ReminderRef> held, DeliveryPath path) {
            this.held = held;
            this.path = path;
        }

        @Override
        public void run() {
            try {
                round.deliver(held, path);
            } finally {
                roundEnded(held.size());
            }
        }
    }

    private static ThreadFactory namedThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
