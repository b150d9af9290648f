package com.meetingreminders.limits;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.timer.LuaScript;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Open streams for each caller across every replica ({@code reminders.limits.open-streams}). Each open stream is an
 * entry of its caller's ZSET in Redis with a lease that the replica holding the stream renews; a stream that ends
 * takes its entry out, and the entries of a replica that died drop out when their lease runs out. While Redis does not
 * answer, streams open anyway and count again once it is back.
 */
@ApplicationScoped
public class StreamSlots {

    private static final LuaScript OPEN = LuaScript.load("stream-open");
    private static final LuaScript RENEW = LuaScript.load("stream-renew");
    /** Renewals per Redis call. */
    private static final int RENEW_BATCH = 500;

    private final RedissonClient redis;
    private final RScript scripts;
    private final ReminderKeys keys;
    private final Scheduler scheduler;
    private final int limit;
    private final Duration lease;
    /** The streams open on this replica: id to the caller's key. */
    private final Map<String, String> open = new ConcurrentHashMap<>();

    StreamSlots(RedissonClient redis, ReminderKeys keys, Scheduler scheduler, RemindersConfig config) {
        this.redis = redis;
        this.scripts = LuaScript.runner(redis);
        this.keys = keys;
        this.scheduler = scheduler;
        this.limit = config.limits().openStreams();
        this.lease = config.limits().streamLease();
    }

    /** A place taken by one open stream; closing it twice is harmless. */
    public final class Slot {
        private final String key;
        private final String id;

        private Slot(String key, String id) {
            this.key = key;
            this.id = id;
        }

        public void close() {
            if (open.remove(id) != null) {
                redis.getScoredSortedSet(key, StringCodec.INSTANCE)
                        .removeAsync(id)
                        .whenComplete((removed, error) -> {
                            if (error != null) {
                                Log.debugf(
                                        "A closed stream keeps its place until its lease ends: %s", error.getMessage());
                            }
                        });
            }
        }
    }

    /** Takes a place for a new stream of the caller, or fails with {@link LimitExceededException}. Blocks on Redis. */
    public Slot open(String caller) {
        String key = keys.openStreams(caller);
        String id = UUID.randomUUID().toString();
        try {
            if (OPEN.number(scripts, List.of(key), List.of(Integer.toString(limit), millis(lease), id)) == 0) {
                throw new LimitExceededException(
                        "Over the limit open-streams: " + limit + " open streams for each caller. Close one first; the"
                                + " place of a stream whose client went away without closing it frees within "
                                + lease.toSeconds() + " s.",
                        lease);
            }
        } catch (LimitExceededException e) {
            throw e;
        } catch (RuntimeException e) {
            Log.warnf("A stream opened without counting it (Redis: %s); it counts once Redis answers", e.getMessage());
        }
        open.put(id, key);
        return new Slot(key, id);
    }

    void start(@Observes StartupEvent started) {
        scheduler
                .newJob(StreamSlots.class.getName())
                .setInterval(lease.dividedBy(3).toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setTask(execution -> renew())
                .schedule();
    }

    /**
     * Renews the lease of every stream open on this replica. One call for each caller (for its few streams):
     * in a cluster each caller's key lies in a slot of its own, and one script may touch one slot only. The calls go
     * together, so that a master that is away holds up none of the others' renewals, nor the renewal for long.
     */
    void renew() {
        Map<String, List<String>> byCaller = open.entrySet().stream()
                .collect(Collectors.groupingBy(
                        Map.Entry::getValue, Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
        List<CompletableFuture<Long>> renewals = new ArrayList<>();
        byCaller.forEach((key, ids) -> {
            for (int from = 0; from < ids.size(); from += RENEW_BATCH) {
                List<String> args = new ArrayList<>(List.of(millis(lease)));
                args.addAll(ids.subList(from, Math.min(ids.size(), from + RENEW_BATCH)));
                renewals.add(RENEW.numberAsync(scripts, List.of(key), args).toCompletableFuture());
            }
        });
        long failed = renewals.stream()
                .filter(renewal ->
                        renewal.handle((renewed, error) -> error != null).join())
                .count();
        if (failed > 0) {
            Log.debugf("%d of %d stream lease renewals failed (Redis); tried again shortly", failed, renewals.size());
        }
    }

    /** A replica that stops gives its streams' places back at once rather than when their lease ends. */
    void stop(@Observes ShutdownEvent stopping) {
        for (Map.Entry<String, String> stream : open.entrySet()) {
            try {
                redis.getScoredSortedSet(stream.getValue(), StringCodec.INSTANCE)
                        .remove(stream.getKey());
            } catch (RuntimeException e) {
                Log.debugf("Stream places left to their lease (Redis: %s)", e.getMessage());
                return;
            }
        }
        open.clear();
    }

    private static String millis(Duration duration) {
        return Long.toString(duration.toMillis());
    }
}
