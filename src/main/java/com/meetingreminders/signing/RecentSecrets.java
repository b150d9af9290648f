package com.meetingreminders.signing;

import com.meetingreminders.timer.ReminderKeys;
import com.meetingreminders.timer.TopicSubscription;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
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

    /** Ages in nanoseconds of a monotonic clock: a wall clock set back would make old entries look young. */
    private final LongSupplier ticker;

    private record Held(StoredSecrets secrets, long readAt) {}

    /** Where a read of the database began: pass it to {@link #keep}. */
    record ReadStart(long generation, long at) {}

    @Inject
    RecentSecrets(RedissonClient redis, ReminderKeys keys) {
        this(redis, keys, System::nanoTime);
    }

    /** With the monotonic clock {@code ticker} (nanoseconds), which a test moves by hand. */
    RecentSecrets(RedissonClient redis, ReminderKeys keys, LongSupplier ticker) {
        this.rotations = redis.getTopic(keys.signingSecretsChannel(), StringCodec.INSTANCE);
        this.ticker = ticker;
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

    /** Taken before a read of the database: what it finds is held only if no rotation came meanwhile. */
    ReadStart beginRead() {
        synchronized (state) {
            return new ReadStart(generation, ticker.getAsLong());
        }
    }

    /** The secrets held of these owners, read less than {@link #MAX_AGE} ago. */
    Map<String, StoredSecrets> of(Collection<String> owners) {
        Map<String, StoredSecrets> found = new HashMap<>();
        long now = ticker.getAsLong();
        for (String owner : owners) {
            Held entry = held.get(owner);
            if (entry != null && now - entry.readAt() < MAX_AGE.toNanos()) {
                found.put(owner, entry.secrets());
            }
        }
        return found;
    }

    /** Holds what a read that began at {@code start} found, unless a rotation came meanwhile; aged from its start. */
    void keep(Map<String, StoredSecrets> read, ReadStart start) {
        synchronized (state) {
            if (!hearing || start.generation() != generation) {
                return;
            }
            if (held.size() + read.size() > MAX_OWNERS) {
                held.clear();
            }
            read.forEach((owner, secrets) -> held.put(owner, new Held(secrets, start.at())));
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
