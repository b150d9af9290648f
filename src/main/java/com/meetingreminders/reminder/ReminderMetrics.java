package com.meetingreminders.reminder;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The service's own meters at /q/metrics (Prometheus names: {@code reminders_delivered_total{path="event"}},
 * {@code reminders_lateness_seconds_bucket}, ...). Counts are this replica's; sum them over the replicas.
 */
@ApplicationScoped
public class ReminderMetrics {

    private final MeterRegistry registry;
    private final Counter scheduled;
    private final Counter cancelled;
    private final Counter skipped;
    private final Counter failed;
    private final Counter claimsLost;
    private final Timer lateness;
    private final Map<DeliveryPath, Counter> delivered = new EnumMap<>(DeliveryPath.class);
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong heldByPause = new AtomicLong();
    private final Map<String, Timer> attempts = new ConcurrentHashMap<>();

    ReminderMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.scheduled = Counter.builder("reminders.scheduled")
                .description("Reminders scheduled by meetings created or changed")
                .register(registry);
        this.cancelled = Counter.builder("reminders.cancelled")
                .description("Unsent reminders cancelled by a reschedule or delete")
                .register(registry);
        this.skipped = Counter.builder("reminders.skipped")
                .description("Reminders not sent because their meeting had started")
                .register(registry);
        this.failed = Counter.builder("reminders.failed")
                .description("Reminders FAILED after their last attempt")
                .register(registry);
        this.claimsLost = Counter.builder("reminders.claims.lost")
                .description("Expiration events this replica heard but another replica or the sweep had claimed")
                .register(registry);
        this.lateness = Timer.builder("reminders.lateness")
                .description("Delivery time minus sendAt, of delivered reminders")
                .publishPercentiles(0.5, 0.9, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
        for (DeliveryPath path : DeliveryPath.values()) {
            delivered.put(
                    path,
                    Counter.builder("reminders.delivered")
                            .description("Reminders delivered, by the path that won them: event or sweep")
                            .tag("path", path.name().toLowerCase(Locale.ROOT))
                            .register(registry));
        }
        Gauge.builder("reminders.pending", pending, AtomicLong::get)
                .description("Reminders SCHEDULED in the database, counted every 10 s")
                .register(registry);
        Gauge.builder("reminders.delivery.held", heldByPause, AtomicLong::get)
                .description("Reminders due that this replica's last sweep left on the schedule because delivery is"
                        + " paused; 0 while delivering")
                .register(registry);
    }

    void committed(ScheduleChange change) {
        scheduled.increment(change.armed().size());
        cancelled.increment(change.disarmed().size());
        skipped.increment(change.skipped());
    }

    /** A delivered reminder: the path (event or sweep) that won it, and how late it went out. */
    public void delivered(DeliveryPath path, Duration late) {
        delivered.get(path).increment();
        lateness.record(late.isNegative() ? Duration.ZERO : late);
    }

    /** What the last sweep left due because delivery is paused (0 when it was not). */
    public void heldByPause(long count) {
        heldByPause.set(count);
    }

    public void skipped(int count) {
        skipped.increment(count);
    }

    public void failed(int count) {
        failed.increment(count);
    }

    public void claimsLost(int count) {
        claimsLost.increment(count);
    }

    /** One attempt on one channel (webhook, email): how long it took and whether it worked. */
    public void attempt(String channel, boolean succeeded, Duration took) {
        String outcome = succeeded ? "success" : "failure";
        // Looked up once per channel and outcome, not built for every send of a burst.
        attempts.computeIfAbsent(channel + ' ' + outcome, key -> Timer.builder("reminders.delivery.attempt")
                        .description("Duration of one delivery attempt on one channel")
                        .tags("channel", channel, "outcome", outcome)
                        .register(registry))
                .record(took);
    }

    @Scheduled(
            every = "${reminders.metrics.pending-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void countPending() {
        try {
            // The transaction begins and ends inside the try: a commit that fails on a lost connection is an
            // outage like any other, not an error for the scheduler to log.
            pending.set(
                    QuarkusTransaction.requiringNew().call(() -> Reminder.count("status", ReminderStatus.SCHEDULED)));
        } catch (RuntimeException e) {
            // The gauge keeps its last value while the database is away; health reports the outage.
            Log.debugf("Could not count pending reminders: %s", e.getMessage());
        }
    }
}
