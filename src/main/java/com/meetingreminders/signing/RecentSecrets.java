package com.meetingreminders.signing;

import com.meetingreminders.timer.ReminderKeys;
import com.meetingreminders.timer.TopicSubscription;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The owners' secrets that delivery rounds read lately, so that a round of owners seen before asks the database
 * nothing. A rotation on any replica takes its owner out of every replica's at once, through a Redis channel. Whatever
 * this replica may have missed there empties all of it: it keeps nothing until it has subscribed, and forgets all
 * each time it subscribes again (after a reconnect). No entry is used past {@link #MAX_AGE} in any case, the longest a
 * rotation can go unseen if its saying is lost while this replica's subscription still stands.
 */
@ApplicationScoped
public class RecentSecrets {

    static final Duration MAX_AGE = Duration.ofSeconds(30);

    /** A bound on memory: past it, all are forgotten and the owners of the next rounds read again. */
    private static final int MAX_OWNERS = 10_000;

    private final RTopic rotations;
    /**
     * Guards what is held, the generation and whether this replica hears the rotations. Not this object's monitor,
     * which subscribe() holds while it waits for Redis: the listeners, on Redisson's threads, take this lock.
     */
    private final Object state = new Object();

    private final Map<String, Held> held = new ConcurrentHashMap<>();

    /** Moves whenever what is held may have gone stale: a read that began before it moved is not kept. */
    private long generation;

    private boolean hearing;
    private TopicSubscription subscription;

    private record Held(StoredSecrets secrets, Instant readAt) {}

    RecentSecrets(RedissonClient redis, ReminderKeys keys) {
        this.rotations = redis.getTopic(keys.signingSecretsChannel(), StringCodec.INSTANCE);
    }

    /** Hears the rotations of every replica; safe to call again after a failure. */
    public synchronized void subscribe() {
        if (subscription == null) {
            subscription = TopicSubscription.to(rotations, this::startHearing, this::stopHearing, this::forget);
            startHearing();
        }
    }

    public synchronized boolean isSubscribed() {
        return subscription != null;
    }

    public synchronized void unsubscribe() {
        if (subscription != null) {
            subscription.close();
            subscription = null;
        }
        stopHearing();
    }

    /** Where to start a read of the database from: pass it to {@link #keep}. */
    long generation() {
        synchronized (state) {
            return generation;
        }
    }

    /**
     * The secrets held of these owners, read less than {@link #MAX_AGE} before {@code now}. One read after {@code now}
     * is not used either: the clock was set back since, and its age is unknown (trusted, it would be held for as long
     * as the clock went back, past the bound on an unseen rotation).
     */
    Map<String, StoredSecrets> of(Collection<String> owners, Instant now) {
        Map<String, StoredSecrets> found = new HashMap<>();
        Instant oldest = now.minus(MAX_AGE);
        for (String owner : owners) {
            Held entry = held.get(owner);
            if (entry != null
                    && entry.readAt().isAfter(oldest)
                    && !entry.readAt().isAfter(now)) {
                found.put(owner, entry.secrets());
            }
        }
        return found;
    }

    /** Holds what a read that began at {@code since} found at {@code readAt}, unless a rotation came meanwhile. */
    void keep(Map<String, StoredSecrets> read, long since, Instant readAt) {
        synchronized (state) {
            if (!hearing || since != generation) {
                return;
            }
            if (held.size() + read.size() > MAX_OWNERS) {
                held.clear();
            }
            read.forEach((owner, secrets) -> held.put(owner, new Held(secrets, readAt)));
        }
    }

    /** This replica rotated the owner's secret: no replica signs with what it held of it from now on. */
    void rotated(String owner) {
        forget(owner);
        rotations.publishAsync(owner).whenComplete((receivers, error) -> {
            if (error != null) {
                Log.warnf(
                        "Other replicas were not told of a rotated signing secret; they read it again within %s: %s",
                        MAX_AGE, error.getMessage());
            }
        });
    }

    private void forget(String owner) {
        synchronized (state) {
            generation++;
            held.remove(owner);
        }
    }

    private void startHearing() {
        synchronized (state) {
            generation++;
            held.clear();
            hearing = true;
        }
    }

    private void stopHearing() {
        synchronized (state) {
            generation++;
            held.clear();
            hearing = false;
        }
    }
}
