package com.meetingreminders.delivery;

import com.meetingreminders.timer.KeyspaceNotifications;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import org.redisson.api.redisnode.RedisNode;

/**
 * Readiness of the reminder timers: DOWN while a Redis master does not answer. Expiration events being off, or heard
 * from fewer masters than exist, is reported in the data but keeps the replica ready, since the sweeper delivers
 * without them; so does a pause of delivery. DOWN, too, until the delivery warm-up ({@link DeliveryWarmUp}) has ended,
 * so that the first reminders a new replica takes are not late by a cold JVM.
 */
@Readiness
@ApplicationScoped
public class RemindersReadiness implements HealthCheck {

    private final KeyspaceNotifications notifications;
    private final ExpiredKeySubscriber subscriber;
    private final DeliveryPause pause;
    private final DeliveryWarmUp warmUp;

    RemindersReadiness(
            KeyspaceNotifications notifications,
            ExpiredKeySubscriber subscriber,
            DeliveryPause pause,
            DeliveryWarmUp warmUp) {
        this.notifications = notifications;
        this.subscriber = subscriber;
        this.pause = pause;
        this.warmUp = warmUp;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("Reminder timers (Redis)");
        // The masters listed once, and their flags asked for only when every one answered the ping: while Redis is
        // away, each call waits for its timeout, and the check would wait for each in turn.
        List<RedisNode> masters = List.of();
        boolean answers;
        try {
            masters = notifications.masters();
            answers = masters.stream().allMatch(master -> master.ping(1, TimeUnit.SECONDS));
        } catch (RuntimeException e) {
            answers = false;
        }
        String events = answers
                ? notifications.enabled(masters).map(on -> on ? "on" : "off").orElse("unknown")
                : "unknown";
        DeliveryWarmUp.Progress warming = warmUp.progress();
        return response.status(answers && warming.done())
                .withData("redis", answers ? "up" : "down")
                .withData("expiredEvents", events)
                // As of the last check (reminders.redis.masters-check-interval): fewer heard means the sweep delivers.
                .withData("masters", subscriber.masters())
                .withData("mastersHeard", subscriber.mastersHeard())
                // An operator's pause keeps the replica ready: it is healthy, and its reminders wait, none lost.
                .withData("paused", pause.pausedHere())
                // Off, warming up, done, stopped at its time limit, or failed: only warming up keeps it unready.
                .withData("warmUp", warming.state())
                .withData("warmUpVerified", warming.verified())
                .build();
    }
}
