package com.meetingreminders.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What each of the service's timer scripts costs Redis on one shard of a given size: the time inside the server
 * ({@code INFO commandstats}), through the scripts and key layout {@link ScalingRedis} arms with.
 */
final class ScalingScripts {

    private final ScalingRedis redis;

    ScalingScripts(ScalingRedis redis) {
        this.redis = redis;
    }

    /** Each script's cost inside Redis on one shard of {@code members} far-future entries. */
    void scriptCosts(long members) {
        String shard = "{t" + members + "}:";
        long far = System.currentTimeMillis() + 7L * 24 * 3600 * 1000;
        List<String> fill = new ArrayList<>();
        for (long i = 0; i < members; i++) {
            fill.add(redis.member(far + i));
            fill.add(Long.toString(far + i));
            if (fill.size() == 2 * ScalingRedis.CHUNK) {
                redis.arm(shard, fill, 1_000);
                fill.clear();
            }
        }
        if (!fill.isEmpty()) {
            redis.arm(shard, fill, 1_000);
        }
        String at = "_shard_" + members + "_members";

        // Arm: a chunk of the service's size, reminders already due (no trigger; they stay to be swept).
        redis.resetStats();
        List<String> due = new ArrayList<>();
        for (int k = 0; k < ScalingRedis.REPEATS; k++) {
            List<String> chunk = new ArrayList<>();
            long past = System.currentTimeMillis() - 60_000 - k * ScalingRedis.SWEEP_BATCH;
            for (int i = 0; i < ScalingRedis.SWEEP_BATCH; i++) {
                String member = redis.member(past - i);
                chunk.add(member);
                chunk.add(Long.toString(past - i));
                due.add(member);
            }
            redis.arm(shard, chunk, 1_000);
        }
        redis.cost(
                "redis_us_arm_" + ScalingRedis.SWEEP_BATCH + at,
                "arm.lua, " + ScalingRedis.SWEEP_BATCH + " members a call");

        // A sweep that takes a full batch of due entries (and leases them).
        redis.resetStats();
        for (int k = 0; k < ScalingRedis.REPEATS; k++) {
            redis.sweep(shard, ScalingRedis.SWEEP_BATCH, 1_000);
        }
        redis.cost(
                "redis_us_sweep_taking_" + ScalingRedis.SWEEP_BATCH + at,
                "sweep.lua taking " + ScalingRedis.SWEEP_BATCH + " due entries");

        // Settle them as delivered.
        redis.resetStats();
        for (int from = 0; from < due.size(); from += ScalingRedis.SWEEP_BATCH) {
            List<String> args = new ArrayList<>(
                    List.of(ScalingRedis.PREFIX + shard + "trigger:", ScalingRedis.PREFIX + shard + "claim:"));
            for (String member : due.subList(from, from + ScalingRedis.SWEEP_BATCH)) {
                args.add(member);
                args.add("-1");
            }
            redis.evalSha("settle", ScalingRedis.PREFIX + shard + "schedule", args);
        }
        redis.cost(
                "redis_us_settle_" + ScalingRedis.SWEEP_BATCH + at,
                "settle.lua, " + ScalingRedis.SWEEP_BATCH + " delivered");

        // A sweep that gives a batch of entries come within the horizon their trigger keys.
        long ahead = System.currentTimeMillis() + 600_000;
        List<String> coming = new ArrayList<>();
        for (int i = 0; i < ScalingRedis.REPEATS * ScalingRedis.SWEEP_BATCH; i++) {
            coming.add(redis.member(ahead + i));
            coming.add(Long.toString(ahead + i));
        }
        for (int from = 0; from < coming.size(); from += 2 * ScalingRedis.CHUNK) {
            redis.arm(shard, coming.subList(from, Math.min(coming.size(), from + 2 * ScalingRedis.CHUNK)), 0);
        }
        redis.resetStats();
        for (int k = 0; k < ScalingRedis.REPEATS; k++) {
            redis.sweep(shard, 0, 1_200_000, ScalingRedis.SWEEP_BATCH);
        }
        redis.cost(
                "redis_us_sweep_giving_" + ScalingRedis.SWEEP_BATCH + "_triggers" + at,
                "sweep.lua giving " + ScalingRedis.SWEEP_BATCH + " triggers");

        // The event path: claims of members heard expiring, a batch a call.
        List<String> heard = new ArrayList<>();
        List<String> armArgs = new ArrayList<>();
        long past = System.currentTimeMillis() - 120_000;
        for (int i = 0; i < ScalingRedis.REPEATS * ScalingRedis.CLAIM_BATCH; i++) {
            heard.add(redis.member(past - i));
            armArgs.add(heard.get(i));
            armArgs.add(Long.toString(past - i));
        }
        redis.arm(shard, armArgs, 1_000);
        redis.resetStats();
        for (int from = 0; from < heard.size(); from += ScalingRedis.CLAIM_BATCH) {
            List<String> args = new ArrayList<>(
                    List.of(ScalingRedis.PREFIX + shard + "claim:", Long.toString(ScalingRedis.LEASE_MS), "0"));
            args.addAll(heard.subList(from, from + ScalingRedis.CLAIM_BATCH));
            redis.evalSha("claim", ScalingRedis.PREFIX + shard + "schedule", args);
        }
        redis.cost(
                "redis_us_claim_" + ScalingRedis.CLAIM_BATCH + at,
                "claim.lua, " + ScalingRedis.CLAIM_BATCH + " members heard, all won");

        // The sweep every replica runs on every shard at least every 100 ms: nothing due, nothing new in the horizon.
        redis.sweep(shard, ScalingRedis.SWEEP_BATCH, 1_000);
        redis.resetStats();
        for (int k = 0; k < 10 * ScalingRedis.REPEATS; k++) {
            redis.sweep(shard, ScalingRedis.SWEEP_BATCH, 1_000);
        }
        redis.cost("redis_us_sweep_idle" + at, "sweep.lua with nothing due and nothing new within the horizon");
    }
}
