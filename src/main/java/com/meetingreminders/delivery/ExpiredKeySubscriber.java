package com.meetingreminders.delivery;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.timer.ExpiryProbes;
import com.meetingreminders.timer.KeyspaceNotifications;
import com.meetingreminders.timer.ReminderKeys;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.api.RPatternTopic;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Listens for expired keys and passes the reminders whose trigger keys expired to the claim guard: on one node, on
 * {@code __keyevent@<db>__:expired}; on a Redis Cluster, on the pattern {@code __keyevent@*__:expired}, which the
 * client subscribes on every master (each publishes only its own keys' expirations). Redisson subscribes again by
 * itself after a reconnect; events missed meanwhile are the sweep's. In cluster mode a periodic check expires a probe
 * key on each current master and counts the masters heard; where one is silent (events off, a promoted replica not
 * subscribed), it turns events on and subscribes again.
 */
@ApplicationScoped
public class ExpiredKeySubscriber {

    static final String EVERY_DATABASE = "__keyevent@*__:expired";

    /** Poison keys are logged once each, not on every expiry. */
    private static final int MAX_REMEMBERED_POISON = 1_000;

    /** A probe's event comes within milliseconds; this leaves room for a loaded machine. */
    private static final long PROBE_PATIENCE_MILLIS = 2_000;

    private final RTopic expirations;
    private final RPatternTopic everyMaster;
    private final boolean cluster;
    private final ReminderKeys keys;
    private final ClaimGuard claimGuard;
    private final DeliveryPause pause;
    private final KeyspaceNotifications notifications;
    private final ExpiryProbes probes;
    private final Set<String> poisonSeen = ConcurrentHashMap.newKeySet();
    private final Map<String, CompletableFuture<Void>> awaitedProbes = new ConcurrentHashMap<>();
    private final AtomicInteger masters = new AtomicInteger();
    private final AtomicInteger mastersHeard = new AtomicInteger();
    private Integer listenerId;

    ExpiredKeySubscriber(
            RedissonClient redis,
            ReminderKeys keys,
            ClaimGuard claimGuard,
            DeliveryPause pause,
            KeyspaceNotifications notifications,
            ExpiryProbes probes,
            MeterRegistry registry,
            RemindersConfig config) {
        this.pause = pause;
        this.cluster = config.redis().cluster();
        this.expirations =
                redis.getTopic("__keyevent@" + config.redis().database() + "__:expired", StringCodec.INSTANCE);
        this.everyMaster = redis.getPatternTopic(EVERY_DATABASE, StringCodec.INSTANCE);
        this.keys = keys;
        this.claimGuard = claimGuard;
        this.notifications = notifications;
        this.probes = probes;
        Gauge.builder("reminders.redis.masters", masters, AtomicInteger::get)
                .description("Redis masters serving slots (1 on a single node), as of the last check")
                .register(registry);
        Gauge.builder("reminders.redis.masters.heard", mastersHeard, AtomicInteger::get)
                .description("Redis masters whose expiration events this replica heard at the last check")
                .register(registry);
    }

    /** Subscribes unless already subscribed; safe to call again after a failure. */
    synchronized void subscribe() {
        if (listenerId == null) {
            if (cluster) {
                listenerId = everyMaster.addListener(String.class, (pattern, channel, key) -> heard(key));
                Log.infof("Listening for expired trigger keys on %s on every master", everyMaster.getPatternNames());
            } else {
                listenerId = expirations.addListener(String.class, (channel, key) -> heard(key));
                Log.infof("Listening for expired trigger keys on %s", expirations.getChannelNames());
            }
        }
    }

    synchronized boolean isSubscribed() {
        return listenerId != null;
    }

    synchronized void unsubscribe() {
        if (listenerId != null) {
            if (cluster) {
                everyMaster.removeListener(listenerId);
            } else {
                expirations.removeListener(listenerId);
            }
            listenerId = null;
        }
    }

    /** Only while subscribed: a replica that is stopping has unsubscribed for good. */
    private synchronized void subscribeAgain() {
        if (listenerId != null) {
            unsubscribe();
            subscribe();
        }
    }

    int masters() {
        return masters.get();
    }

    int mastersHeard() {
        return mastersHeard.get();
    }

    private void heard(String key) {
        if (keys.isProbe(key)) {
            CompletableFuture<Void> awaited = awaitedProbes.get(key);
            if (awaited != null) {
                awaited.complete(null);
            }
        } else {
            expired(key);
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

    /** Counts the masters this replica hears; in cluster mode, makes a silent one heard again. */
    @Scheduled(
            every = "{reminders.redis.masters-check-interval}",
            delayed = "${reminders.background.first-run-delay}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void checkMasters() throws InterruptedException {
        if (!isSubscribed()) {
            return;
        }
        if (!cluster) {
            // One node: the subscription is to it, so it is heard while it publishes expired events.
            masters.set(1);
            mastersHeard.set(notifications.enabled().orElse(false) ? 1 : 0);
            return;
        }
        try {
            List<String> silent = silentMasters();
            if (!silent.isEmpty()) {
                Log.warnf(
                        "Hearing expiration events from %d of %d Redis masters (not from %s): checking their"
                                + " notify-keyspace-events and subscribing again",
                        mastersHeard.get(), masters.get(), silent);
                notifications.apply();
                subscribeAgain();
            }
        } catch (RuntimeException | ExecutionException e) {
            Log.debugf("Could not check which Redis masters are heard: %s", e.getMessage());
        }
    }

    private List<String> silentMasters() throws InterruptedException, ExecutionException {
        Map<String, String> probeKeys = probes.keysByMaster();
        Map<String, CompletableFuture<Void>> awaited = new TreeMap<>();
        probeKeys.forEach((master, key) -> {
            CompletableFuture<Void> heard = new CompletableFuture<>();
            awaited.put(master, heard);
            awaitedProbes.put(key, heard);
        });
        try {
            probes.expire(probeKeys.values());
            CompletableFuture.allOf(awaited.values().toArray(CompletableFuture[]::new))
                    .get(PROBE_PATIENCE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Some stayed silent: counted below.
        } finally {
            probeKeys.values().forEach(awaitedProbes::remove);
        }
        List<String> silent = awaited.entrySet().stream()
                .filter(probe -> !probe.getValue().isDone())
                .map(Map.Entry::getKey)
                .toList();
        masters.set(awaited.size());
        mastersHeard.set(awaited.size() - silent.size());
        return silent;
    }
}
