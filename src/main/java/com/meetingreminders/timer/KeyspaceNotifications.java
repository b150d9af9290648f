package com.meetingreminders.timer;

import com.meetingreminders.config.RemindersConfig;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;

/**
 * Redis's {@code notify-keyspace-events}: the event path needs E (keyevent channels) and x (expired events). Without
 * them, or where CONFIG is forbidden, reminders are still delivered, by the sweep alone.
 */
@ApplicationScoped
public class KeyspaceNotifications {

    static final String SETTING = "notify-keyspace-events";

    private final RedissonClient redis;
    private final boolean configure;

    KeyspaceNotifications(RedissonClient redis, RemindersConfig config) {
        this.redis = redis;
        this.configure = config.redis().configureNotifications();
    }

    /** Adds E and x to the flags already set, unless configured not to; logs what to do where it cannot. */
    public void apply() {
        Optional<String> flags = current();
        if (flags.isPresent() && deliversExpiredEvents(flags.get())) {
            return;
        }
        if (configure && flags.isPresent()) {
            String wanted = withExpiredEvents(flags.get());
            try {
                node().setConfig(SETTING, wanted);
                Log.infof("Set %s to '%s' so that Redis publishes expired events", SETTING, wanted);
                return;
            } catch (RuntimeException e) {
                Log.debugf("CONFIG SET refused: %s", e.getMessage());
            }
        }
        Log.warnf(
                "Redis does not publish expired events and the service may not turn them on: run"
                        + " 'CONFIG SET %s Ex' (or add E and x to it in redis.conf) for prompt reminders;"
                        + " until then the sweeper alone delivers them",
                SETTING);
    }

    /** Whether Redis publishes expired events; empty if Redis is down or CONFIG is forbidden. */
    public Optional<Boolean> enabled() {
        return current().map(KeyspaceNotifications::deliversExpiredEvents);
    }

    private Optional<String> current() {
        try {
            return Optional.ofNullable(node().getConfig(SETTING).get(SETTING));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private RedisNode node() {
        return redis.getRedisNodes(RedisNodes.SINGLE).getInstance();
    }

    static boolean deliversExpiredEvents(String flags) {
        return flags.contains("E") && (flags.contains("x") || flags.contains("A"));
    }

    static String withExpiredEvents(String flags) {
        String wanted = flags.contains("E") ? flags : flags + "E";
        return wanted.contains("x") || wanted.contains("A") ? wanted : wanted + "x";
    }
}
