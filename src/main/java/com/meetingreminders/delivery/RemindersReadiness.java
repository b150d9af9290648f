package com.meetingreminders.delivery;

import com.meetingreminders.timer.KeyspaceNotifications;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNodes;

/**
 * Readiness of the reminder timers: DOWN while Redis does not answer. Expiration events being off is reported in the
 * data but keeps the replica ready, since the sweeper delivers without them; so does a pause of delivery.
 */
@Readiness
@ApplicationScoped
public class RemindersReadiness implements HealthCheck {

    private final RedissonClient redis;
    private final KeyspaceNotifications notifications;
    private final DeliveryPause pause;

    RemindersReadiness(RedissonClient redis, KeyspaceNotifications notifications, DeliveryPause pause) {
        this.redis = redis;
        this.notifications = notifications;
        this.pause = pause;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("Reminder timers (Redis)");
        boolean answers;
        try {
            answers = redis.getRedisNodes(RedisNodes.SINGLE).getInstance().ping(1, TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            answers = false;
        }
        String events = notifications.enabled().map(on -> on ? "on" : "off").orElse("unknown");
        return response.status(answers)
                .withData("redis", answers ? "up" : "down")
                .withData("expiredEvents", events)
                // An operator's pause keeps the replica ready: it is healthy, and its reminders wait, none lost.
                .withData("paused", pause.pausedHere())
                .build();
    }
}
