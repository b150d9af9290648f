package com.meetingreminders.delivery;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.background.GuardedLoop;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.reminder.DeliveryPath;
import com.meetingreminders.reminder.ReminderMetrics;
import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.ReminderTimers;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The event path: gathers the expirations this replica hears, runs the claim script on them in batches and hands
 * what this replica won to the dispatcher. Whatever it has no room for is left to the sweep.
 */
@ApplicationScoped
public class ClaimGuard {

    private static final int MAX_HEARD = 100_000;
    private static final int MAX_CLAIMS_PER_CALL = 500;
    private static final Duration POLL = Duration.ofMillis(100);

    private final ReminderTimers timers;
    private final Dispatcher dispatcher;
    private final ReminderMetrics metrics;
    private final BlockingQueue<ReminderRef> heard = new ArrayBlockingQueue<>(MAX_HEARD);
    private final GuardedLoop loop;

    ClaimGuard(
            ReminderTimers timers,
            Dispatcher dispatcher,
            ReminderMetrics metrics,
            BackgroundWork background,
            RemindersConfig config) {
        this.timers = timers;
        this.dispatcher = dispatcher;
        this.metrics = metrics;
        this.loop = background.loop(
                ClaimGuard.class,
                "reminder-claims",
                this::claimOnce,
                config.sweeper().interval(),
                () -> {});
    }

    void start() {
        loop.start();
    }

    /** Called on Redisson's listener thread, so it only queues: a full queue drops the event, and the sweep covers it. */
    void heard(ReminderRef ref) {
        heard.offer(ref);
    }

    private void claimOnce() throws InterruptedException {
        // A short wait, so that a stop is noticed without an interrupt.
        ReminderRef first = heard.poll(POLL.toMillis(), TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        List<ReminderRef> batch = new ArrayList<>();
        batch.add(first);
        heard.drainTo(batch, MAX_CLAIMS_PER_CALL - 1);
        // No slots, no claim: what this replica cannot take now stays on the schedule for the sweep.
        Dispatcher.Taken<List<ReminderRef>> taken = dispatcher.take(
                batch.size(),
                slots -> slots == 0 ? List.of() : timers.claim(batch.subList(0, slots)),
                won -> won,
                DeliveryPath.EVENT);
        metrics.claimsLost(taken.slots() - taken.held());
    }
}
