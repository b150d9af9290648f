package com.meetingreminders.timer;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.tracing.RedisSpans;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.redisson.api.RScript;
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
    static final LuaScript CLAIM = LuaScript.load("claim");
    private static final LuaScript SWEEP = LuaScript.load("sweep");
    static final LuaScript SETTLE = LuaScript.load("settle");

    private final RedissonClient redis;
    private final RScript scripts;
    /**
     * Sweeps and claims are sent once: a try sent again after the first timed out would run past the deadline and take
     * nothing (see {@link ShardClocks}), so it would only hold the sweeper or the claimer up for another timeout.
     */
    private final RScript sentOnce;

    private final ReminderKeys keys;
    private final RemindersConfig config;
    private final RedisSpans spans;
    private final AtomicInteger nextShard = new AtomicInteger();
    private final ShardClocks clocks;

    ReminderTimers(RedissonClient redis, ReminderKeys keys, RemindersConfig config, RedisSpans spans) {
        this.redis = redis;
        this.scripts = LuaScript.runner(redis);
        this.sentOnce = LuaScript.sentOnce(redis, config.redis().timeout());
        this.keys = keys;
        this.config = config;
        this.spans = spans;
        this.clocks = new ShardClocks(keys.shards());
    }

    /** Puts reminders on the schedule, keeping those already there; returns how many are already due. */
    public int arm(Collection<ScheduleEntry> entries) {
        int[] due = {0};
        throwIfAny(everyShard(byShard(entries, ScheduleEntry::ref), (shard, inShard) -> {
            for (List<ScheduleEntry> chunk : chunks(inShard)) {
                due[0] += armShard(shard, chunk);
            }
        }));
        return due[0];
    }

    private int armShard(int shard, List<ScheduleEntry> chunk) {
        List<String> args = new ArrayList<>(2 + 2 * chunk.size());
        args.add(keys.triggerPrefix(shard));
        args.add(Long.toString(config.trigger().horizon().toMillis()));
        for (ScheduleEntry entry : chunk) {
            args.add(entry.ref().id());
            args.add(Long.toString(entry.dueAt().toEpochMilli()));
        }
        return (int) (long) spans.script("arm", () -> ARM.number(scripts, List.of(keys.schedule(shard)), args));
    }

    /** Takes the reminders off the schedule, so that their timers cannot fire. */
    public void disarm(Collection<ReminderRef> refs) {
        settle(refs.stream().map(Settlement::finished).toList());
    }

    /** The event path's guard: returns the reminders this replica won and now holds. */
    public List<ReminderRef> claim(Collection<ReminderRef> heard) {
        List<ReminderRef> won = new ArrayList<>();
        Map<Integer, List<ReminderRef>> shards = byShard(heard, ref -> ref);
        // A shard whose master is away loses only its claims: the sweep takes those entries once it is back.
        throwIfAll(shards.size(), everyShard(shards, (shard, inShard) -> {
            String schedule = keys.schedule(shard);
            won.addAll(refsOf(
                    schedule,
                    CLAIM.list(
                            sentOnce,
                            List.of(schedule),
                            ScriptArguments.claim(
                                    keys.claimPrefix(shard),
                                    config.claim().lease(),
                                    clocks.deadline(shard, config.redis().timeout()),
                                    inShard))));
        }));
        return won;
    }

    /**
     * Sweeps every shard: takes up to {@code limit} due entries in all, gives trigger keys to those that came within
     * the horizon. Each sweep starts at the next shard, so that a full dispatcher does not starve the last ones; a
     * shard whose master is away is left to a later sweep, the others are swept now.
     */
    public Sweep sweep(int limit) {
        int first = Math.floorMod(nextShard.getAndIncrement(), keys.shards());
        Map<Integer, Integer> inOrder = new LinkedHashMap<>();
        for (int i = 0; i < keys.shards(); i++) {
            inOrder.put((first + i) % keys.shards(), i);
        }
        Sweep[] all = {null};
        throwIfAll(inOrder.size(), everyShard(inOrder, (shard, position) -> {
            Sweep one = sweepShard(
                    shard, limit - (all[0] == null ? 0 : all[0].taken().size()));
            all[0] = all[0] == null ? one : all[0].and(one);
        }));
        return all[0];
    }

    private Sweep sweepShard(int shard, int limit) {
        String schedule = keys.schedule(shard);
        long wouldBeDeadline = clocks.wouldBeDeadline(shard, config.redis().timeout());
        List<Object> reply = SWEEP.list(
                sentOnce,
                List.of(schedule, keys.armedUntil(shard), keys.reconciled(shard)),
                List.of(
                        Integer.toString(limit),
                        Long.toString(config.claim().lease().toMillis()),
                        Long.toString(config.sweeper().grace().toMillis()),
                        Long.toString(config.trigger().horizon().toMillis()),
                        keys.triggerPrefix(shard),
                        Integer.toString(MAX_TRIGGERS_PER_SWEEP),
                        Long.toString(clocks.sent(shard, wouldBeDeadline))));
        long redisNow = (Long) reply.get(0);
        clocks.read(shard, redisNow, wouldBeDeadline);
        long nextDue = (Long) reply.get(2);
        return new Sweep(
                redisNow,
                (Long) reply.get(1) == 1L,
                nextDue < 0 ? OptionalLong.empty() : OptionalLong.of(nextDue),
                (Long) reply.get(3),
                refsOf(schedule, reply.subList(4, reply.size())));
    }

    /** Records what became of entries this replica held. */
    public void settle(Collection<Settlement> settlements) {
        throwIfAny(everyShard(byShard(settlements, Settlement::ref), (shard, inShard) -> {
            for (List<Settlement> chunk : chunks(inShard)) {
                settleShard(shard, chunk);
            }
        }));
    }

    private void settleShard(int shard, List<Settlement> chunk) {
        List<String> args = ScriptArguments.settle(keys.triggerPrefix(shard), keys.claimPrefix(shard), chunk);
        spans.script("settle", () -> SETTLE.number(scripts, List.of(keys.schedule(shard)), args));
    }

    /** Each shard has its marker: a master that lost its keys (a failover without replication) is noticed alone. */
    public void markReconciled() {
        for (int shard = 0; shard < keys.shards(); shard++) {
            redis.getBucket(keys.reconciled(shard)).set("1");
        }
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
    private List<ReminderRef> refsOf(String schedule, List<Object> members) {
        List<ReminderRef> refs = new ArrayList<>(members.size());
        for (Object member : members) {
            ReminderRef.parse((String) member)
                    .ifPresentOrElse(refs::add, () -> removeForeign(schedule, (String) member));
        }
        return refs;
    }

    private void removeForeign(String schedule, String member) {
        Log.warnf("Removing %s from the schedule: it names no reminder", member);
        redis.getScoredSortedSet(schedule, StringCodec.INSTANCE).remove(member);
    }

    /** Runs the step for every shard, so that one master away does not hold up the others; returns the failures. */
    private static <T> List<RuntimeException> everyShard(Map<Integer, T> shards, BiConsumer<Integer, T> step) {
        List<RuntimeException> failures = new ArrayList<>();
        shards.forEach((shard, work) -> {
            try {
                step.accept(shard, work);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        });
        return failures;
    }

    private static void throwIfAny(List<RuntimeException> failures) {
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    /** What some shards gave is passed on; only when none answered is the caller told of a failure. */
    private static void throwIfAll(int shards, List<RuntimeException> failures) {
        if (failures.size() == shards) {
            throwIfAny(failures);
        } else if (!failures.isEmpty()) {
            Log.debugf(
                    "%d of %d shards did not answer: %s",
                    failures.size(), shards, failures.get(0).getMessage());
        }
    }

    private <T> Map<Integer, List<T>> byShard(Collection<T> items, Function<T, ReminderRef> ref) {
        return items.stream()
                .collect(Collectors.groupingBy(
                        item -> keys.shardOf(ref.apply(item)), TreeMap::new, Collectors.toList()));
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
