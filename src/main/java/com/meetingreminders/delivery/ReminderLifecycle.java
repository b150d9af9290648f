package com.meetingreminders.delivery;

import com.meetingreminders.background.BackgroundWork;
import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.notify.StreamChannel;
import com.meetingreminders.signing.RecentSecrets;
import com.meetingreminders.timer.KeyspaceNotifications;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Starts the reminder machinery once the application is up and stops it in order on shutdown. */
@ApplicationScoped
class ReminderLifecycle {

    private final KeyspaceNotifications notifications;
    private final ExpiredKeySubscriber subscriber;
    private final StreamChannel stream;
    private final RecentSecrets recentSecrets;
    private final ClaimGuard claimGuard;
    private final Sweeper sweeper;
    private final DeliveryWarmUp warmUp;
    private final BackgroundWork background;
    private final DeliveryTimeouts timeouts;
    private final Duration lease;
    private volatile boolean stopping;
    private final Scheduler scheduler;

    ReminderLifecycle(
            KeyspaceNotifications notifications,
            ExpiredKeySubscriber subscriber,
            StreamChannel stream,
            RecentSecrets recentSecrets,
            ClaimGuard claimGuard,
            Sweeper sweeper,
            DeliveryWarmUp warmUp,
            BackgroundWork background,
            Scheduler scheduler,
            DeliveryTimeouts timeouts,
            RemindersConfig config) {
        this.scheduler = scheduler;
        this.notifications = notifications;
        this.subscriber = subscriber;
        this.stream = stream;
        this.recentSecrets = recentSecrets;
        this.claimGuard = claimGuard;
        this.sweeper = sweeper;
        this.warmUp = warmUp;
        this.background = background;
        this.timeouts = timeouts;
        this.lease = config.claim().lease();
    }

    void start(@Observes StartupEvent started) {
        if (lease.compareTo(timeouts.transaction()) < 0) {
            // Not unsafe (a reminder is never tried again before its backoff), but replicas then wait for each other.
            Log.warnf(
                    "reminders.claim.lease (%s) is shorter than a delivery round may take (%s: the longest channel"
                            + " timeout plus %s): a round may still be sending when its lease ends",
                    lease, timeouts.transaction(), DeliveryTimeouts.DATABASE_WORK);
        }
        // Alongside the rest: a reminder due meanwhile is delivered as usual, only readiness waits for it.
        warmUp.start();
        try {
            notifications.apply();
        } catch (RuntimeException e) {
            Log.warnf("Could not check Redis's keyspace notifications yet: %s", e.getMessage());
        }
        subscribe();
        claimGuard.start();
        // The first sweep finds out whether Redis still has our keys, and asks for a full re-arm if not.
        sweeper.start();
    }

    /**
     * Subscriptions that failed (Redis down at start) are tried again until they hold, each on its own; a replica with
     * stream clients says again that it listens. One run at a time: while Redis is away a try blocks for its timeout.
     */
    @Scheduled(
            every = "${reminders.redis.resubscribe-interval}",
            delayed = "${reminders.background.first-run-delay}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void subscribe() {
        if (stopping) {
            return;
        }
        stream.stillListening();
        subscribe("expired events", subscriber::isSubscribed, subscriber::subscribe);
        subscribe("the stream", stream::isSubscribed, stream::subscribe);
        subscribe("signing-secret rotations", recentSecrets::isSubscribed, recentSecrets::subscribe);
    }

    private static void subscribe(String what, BooleanSupplier subscribed, Runnable subscribe) {
        if (subscribed.getAsBoolean()) {
            return;
        }
        try {
            subscribe.run();
        } catch (RuntimeException e) {
            Log.debugf("Subscribing to %s failed, trying again: %s", what, e.getMessage());
        }
    }

    /**
     * The one shutdown path: no new work comes in (periodic jobs paused, expirations unheard), then the background
     * work stops in its order ({@link BackgroundWork#stop}: the claim guard and sweeper, the dispatcher's rounds, the
     * pools) within the shutdown grace, and the streams close last, after the last round has announced what it sent.
     */
    void stop(@Observes ShutdownEvent shutdown) throws InterruptedException {
        stopping = true;
        // Periodic jobs would otherwise run against a database and Redis client that are going away.
        scheduler.pause();
        subscriber.unsubscribe();
        background.stop(timeouts.shutdownGrace());
        recentSecrets.unsubscribe();
        stream.unsubscribe();
    }
}
