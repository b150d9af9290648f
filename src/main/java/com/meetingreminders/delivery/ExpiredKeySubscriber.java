package com.meetingreminders.delivery;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Listens on {@code __keyevent@<db>__:expired} and passes the reminders whose trigger keys expired to the claim
 * guard. Redisson subscribes again by itself after a reconnect; events missed meanwhile are the sweep's.
 */
@ApplicationScoped
public class ExpiredKeySubscriber {

    /** Poison keys are logged once each, not on every expiry. */
    private static final int MAX_REMEMBERED_POISON = 1_000;

    private final RTopic expirations;
    private final ReminderKeys keys;
    private final ClaimGuard claimGuard;
    private final DeliveryPause pause;
    private final Set<String> poisonSeen = ConcurrentHashMap.newKeySet();
    private Integer listenerId;

    ExpiredKeySubscriber(
            RedissonClient redis,
            ReminderKeys keys,
            ClaimGuard claimGuard,
            DeliveryPause pause,
            RemindersConfig config) {
        this.pause = pause;
        this.expirations =
                redis.getTopic("__keyevent@" + config.redis().database() + "__:expired", StringCodec.INSTANCE);
        this.keys = keys;
        this.claimGuard = claimGuard;
    }

    /** Subscribes unless already subscribed; safe to call again after a failure. */
    synchronized void subscribe() {
        if (listenerId == null) {
            listenerId = expirations.addListener(String.class, (channel, key) -> expired(key));
            Log.infof("Listening for expired trigger keys on %s", expirations.getChannelNames());
        }
    }

    synchronized boolean isSubscribed() {
        return listenerId != null;
    }

    synchronized void unsubscribe() {
        if (listenerId != null) {
            expirations.removeListener(listenerId);
            listenerId = null;
        }
    }

    void expired(String key) {
        // Paused: the entry stays due on the schedule, and the sweep takes it once delivery resumes.
        if (!keys.isTrigger(key) || pause.pausedHere()) {
            return;
        }
        keys.parseTrigger(key).ifPresentOrElse(claimGuard::heard, () -> {
            if (poisonSeen.size() < MAX_REMEMBERED_POISON && poisonSeen.add(key)) {
                Log.warnf("Ignoring expired key %s: it names no reminder", key);
            }
        });
    }
}
