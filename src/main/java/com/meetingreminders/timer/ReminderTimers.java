package com.meetingreminders.timer;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.tracing.RedisSpans;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The reminders' timers in Redis: the schedule ZSET with its trigger keys and claim counters, each change made by one
 * atomic script on Redis server time. Everything here can be rebuilt from the database.
 */
@ApplicationScoped
public class ReminderTimers {

    /** Keeps each script call to a size Redis runs in a few milliseconds. */
    private static final int MAX_MEMBERS_PER_CALL = 5_000;

    private static final int MAX_TRIGGERS_PER_SWEEP = 10_000;

    private static final LuaScript ARM = LuaScript.load("arm");
    private static final LuaScript CLAIM = LuaScript.load("claim");
    private static final LuaScript SWEEP = LuaScript.load("sweep");
    private static final LuaScript SETTLE = LuaScript.load("settle");

    private final RedissonClient redis;
    private final ReminderKeys keys;
    private final RemindersConfig config;
    private final RedisSpans spans;

    ReminderTimers(RedissonClient redis, ReminderKeys keys, RemindersConfig config, RedisSpans spans) {
        this.redis = redis;
        this.keys = keys;
        this.config = config;
        this.spans = spans;
    }

    /** Puts reminders on the schedule, keeping those already there; returns how many are already due. */
    public int arm(Collection<ScheduleEntry> entries) {
        int due = 0;
        for (List<ScheduleEntry> chunk : chunks(entries)) {
            List<String> args = new ArrayList<>(2 + 2 * chunk.size());
            args.add(keys.triggerPrefix());
            args.add(Long.toString(config.trigger().horizon().toMillis()));
            for (ScheduleEntry entry : chunk) {
                args.add(entry.ref().id());
                args.add(Long.toString(entry.dueAt().toEpochMilli()));
            }
            due += (int) (long) spans.script("arm", () -> ARM.number(redis, List.of(keys.schedule()), args));
        }
        return due;
    }

    /** Takes the reminders off the schedule, so that their timers cannot fire. */
    public void disarm(Collection<ReminderRef> refs) {
        settle(refs.stream().map(Settlement::finished).toList());
    }

    /** The event path's guard: returns the reminders this replica won and now holds. */
    public List<ReminderRef> claim(Collection<ReminderRef> heard) {
        List<String> args = new ArrayList<>(2 + heard.size());
        args.add(keys.claimPrefix());
        args.add(Long.toString(config.claim().lease().toMillis()));
        heard.forEach(ref -> args.add(ref.id()));
        return refsOf(CLAIM.list(redis, List.of(keys.schedule()), args));
    }

    /** Takes up to {@code limit} due entries, gives trigger keys to those that came within the horizon. */
    public Sweep sweep(int limit) {
        List<Object> reply = SWEEP.list(
                redis,
                List.of(keys.schedule(), keys.armedUntil(), keys.reconciled()),
                List.of(
                        Integer.toString(limit),
                        Long.toString(config.claim().lease().toMillis()),
                        Long.toString(config.sweeper().grace().toMillis()),
                        Long.toString(config.trigger().horizon().toMillis()),
                        keys.triggerPrefix(),
                        Integer.toString(MAX_TRIGGERS_PER_SWEEP)));
        long nextDue = (Long) reply.get(2);
        return new Sweep(
                (Long) reply.get(0),
                (Long) reply.get(1) == 1L,
                nextDue < 0 ? OptionalLong.empty() : OptionalLong.of(nextDue),
                (Long) reply.get(3),
                refsOf(reply.subList(4, reply.size())));
    }

    /** Records what became of entries this replica held. */
    public void settle(Collection<Settlement> settlements) {
        for (List<Settlement> chunk : chunks(settlements)) {
            List<String> args = new ArrayList<>(2 + 2 * chunk.size());
            args.add(keys.triggerPrefix());
            args.add(keys.claimPrefix());
            for (Settlement settlement : chunk) {
                args.add(settlement.ref().id());
                args.add(Long.toString(
                        settlement.dueAgainIn().map(Duration::toMillis).orElse(-1L)));
            }
            spans.script("settle", () -> SETTLE.number(redis, List.of(keys.schedule()), args));
        }
    }

    public void markReconciled() {
        redis.getBucket(keys.reconciled()).set("1");
    }

    /** True if this replica may re-arm everything now; the lock lapses by itself if the replica dies. */
    public boolean tryLockReconcile(String owner, Duration ttl) {
        return redis.<String>getBucket(keys.reconcileLock()).setIfAbsent(owner, ttl);
    }

    public void unlockReconcile(String owner) {
        redis.<String>getBucket(keys.reconcileLock()).compareAndSet(owner, null);
    }

    /**
     * Members come from our own schedule, so one that does not parse was put there by something else: it is removed,
     * or sweeps would take it again after every lease.
     */
    private List<ReminderRef> refsOf(List<Object> members) {
        List<ReminderRef> refs = new ArrayList<>(members.size());
        for (Object member : members) {
            ReminderRef.parse((String) member).ifPresentOrElse(refs::add, () -> removeForeign((String) member));
        }
        return refs;
    }

    private void removeForeign(String member) {
        Log.warnf("Removing %s from the schedule: it names no reminder", member);
        redis.getScoredSortedSet(keys.schedule(), StringCodec.INSTANCE).remove(member);
    }

    private static <T> List<List<T>> chunks(Collection<T> items) {
        List<T> all = List.copyOf(items);
        List<List<T>> chunks = new ArrayList<>();
        for (int from = 0; from < all.size(); from += MAX_MEMBERS_PER_CALL) {
            chunks.add(all.subList(from, Math.min(all.size(), from + MAX_MEMBERS_PER_CALL)));
        }
        return chunks;
    }
}
