package com.meetingreminders.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The Redis inputs of docs/scaling.md, on a redis-server of its own: memory per reminder armed as the service arms it
 * (its own Lua scripts, read from src/main/resources/redis, and its key layout, {@code reminders:{sN}:schedule} and
 * {@code reminders:{sN}:trigger:{deliveryId}}), and what each script costs Redis on a shard of a given size, read from
 * Redis's own {@code INFO commandstats} (time inside the server, without the round trip).
 */
final class ScalingRedis {

    /** The service's default prefix, so that keys have the length they have in production. */
    static final String PREFIX = "reminders:";
    /** As the service's ReminderTimers: members per arm or settle call. */
    static final int CHUNK = 5_000;
    /** reminders.sweeper.batch-size's default: most entries a sweep takes. */
    static final int SWEEP_BATCH = 500;

    static final int CLAIM_BATCH = 100;
    static final int REPEATS = 20;
    static final long LEASE_MS = 30_000;

    private final int port;
    private final RedissonClient redis;
    private final RScript script;
    private final Map<String, String> sha = new java.util.HashMap<>();
    private final Scaling.Figures figures;
    private long sequence;

    ScalingRedis(int port, Scaling.Figures figures) throws IOException {
        this.port = port;
        this.figures = figures;
        redis = Floor.client("redis://127.0.0.1:" + port);
        script = redis.getScript(StringCodec.INSTANCE);
        for (String name : List.of("arm", "sweep", "claim", "settle")) {
            sha.put(name, script.scriptLoad(Files.readString(Path.of("src/main/resources/redis/" + name + ".lua"))));
        }
    }

    /** {@code reminders} far-future reminders armed into {@code shards} shards; memory per reminder, per key. */
    void memory(long reminders, int shards) {
        long before = usedMemory();
        long far = System.currentTimeMillis() + 7L * 24 * 3600 * 1000;
        List<List<String>> byShard = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            byShard.add(new ArrayList<>());
        }
        for (long i = 0; i < reminders; i++) {
            String member = member(far + i);
            // The service's shard is CRC32 of the deliveryId; any even spread gives the same bytes a member.
            List<String> shard = byShard.get((int) (i % shards));
            shard.add(member);
            shard.add(Long.toString(far + i));
            if (shard.size() == 2 * CHUNK) {
                arm("{s" + i % shards + "}:", shard, 1_000);
                shard.clear();
            }
        }
        for (int s = 0; s < shards; s++) {
            if (!byShard.get(s).isEmpty()) {
                arm("{s" + s + "}:", byShard.get(s), 1_000);
            }
        }
        long after = usedMemory();
        figures.add("redis_used_memory_bytes_before", before, "INFO memory used_memory, empty server");
        figures.add("redis_used_memory_bytes_after_" + reminders, after, "after arming them far ahead, no triggers");
        figures.add("redis_bytes_per_pending_reminder", (after - before) / reminders, "used_memory delta / reminders");
        String schedule = PREFIX + "{s0}:schedule";
        long zcard = Long.parseLong(cli("ZCARD", schedule));
        long usage = Long.parseLong(cli("MEMORY", "USAGE", schedule, "SAMPLES", "0"));
        figures.add("redis_schedule_members_shard_0", zcard, "ZCARD " + schedule);
        figures.add("redis_schedule_bytes_shard_0", usage, "MEMORY USAGE " + schedule + " SAMPLES 0");
        figures.add("redis_bytes_per_schedule_member", usage / zcard, "MEMORY USAGE / ZCARD");
        figures.add("redis_schedule_encoding", cli("OBJECT", "ENCODING", schedule), "OBJECT ENCODING");

        // Reminders within the horizon also get a trigger key, as the service gives them one (arm or sweep).
        long triggered = 10_000;
        long beforeTriggers = usedMemory();
        List<String> soon = new ArrayList<>();
        long dueAt = System.currentTimeMillis() + 3_600_000;
        for (long i = 0; i < triggered; i++) {
            soon.add(member(dueAt + i));
            soon.add(Long.toString(dueAt + i));
        }
        for (int from = 0; from < soon.size(); from += 2 * CHUNK) {
            arm("{s0}:", soon.subList(from, Math.min(soon.size(), from + 2 * CHUNK)), 7_200_000);
        }
        figures.add(
                "redis_bytes_per_reminder_with_trigger",
                (usedMemory() - beforeTriggers) / triggered,
                "used_memory delta / " + triggered + " reminders armed within the horizon (member + trigger key)");
        String trigger = PREFIX + "{s0}:trigger:" + soon.get(0);
        figures.add(
                "redis_trigger_key_bytes", Long.parseLong(cli("MEMORY", "USAGE", trigger)), "MEMORY USAGE " + trigger);
        // A claim counter, as claim.lua leaves one for every member it is asked about.
        evalSha(
                "claim",
                PREFIX + "{s0}:schedule",
                List.of(PREFIX + "{s0}:claim:", Long.toString(LEASE_MS), "0", soon.get(0)));
        String claim = PREFIX + "{s0}:claim:" + soon.get(0);
        figures.add("redis_claim_key_bytes", Long.parseLong(cli("MEMORY", "USAGE", claim)), "MEMORY USAGE " + claim);
    }

    void sweep(String shard, int limit, long horizonMs) {
        sweep(shard, limit, horizonMs, 10_000);
    }

    void sweep(String shard, int limit, long horizonMs, int maxTriggers) {
        evalSha(
                "sweep",
                List.of(PREFIX + shard + "schedule", PREFIX + shard + "armed-until", PREFIX + shard + "reconciled"),
                List.of(
                        Integer.toString(limit),
                        Long.toString(LEASE_MS),
                        "0",
                        Long.toString(horizonMs),
                        PREFIX + shard + "trigger:",
                        Integer.toString(maxTriggers),
                        "0"));
    }

    void arm(String shard, List<String> pairs, long horizonMs) {
        List<String> args = new ArrayList<>(List.of(PREFIX + shard + "trigger:", Long.toString(horizonMs)));
        args.addAll(pairs);
        evalSha("arm", PREFIX + shard + "schedule", args);
    }

    void evalSha(String name, String key, List<String> args) {
        evalSha(name, List.of(key), args);
    }

    void evalSha(String name, List<Object> keys, List<String> args) {
        // arm and settle answer a number, sweep and claim a list.
        RScript.ReturnType type =
                name.equals("arm") || name.equals("settle") ? RScript.ReturnType.LONG : RScript.ReturnType.LIST;
        script.evalSha(RScript.Mode.READ_WRITE, sha.get(name), type, keys, args.toArray());
    }

    String member(long sendAtMillis) {
        return new UUID(sequence++, sendAtMillis).toString() + ":" + sendAtMillis;
    }

    void resetStats() {
        cli("CONFIG", "RESETSTAT");
    }

    /** Microseconds a call of EVALSHA took inside Redis since the last reset. */
    void cost(String name, String what) {
        for (String line : cli("INFO", "commandstats").split("\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                String perCall =
                        line.replaceAll(".*usec_per_call=([0-9.]+).*", "$1").trim();
                String calls = line.replaceAll("^cmdstat_evalsha:calls=([0-9]+),.*", "$1")
                        .trim();
                figures.add(name, perCall, what + "; INFO commandstats usec_per_call over " + calls + " calls");
                return;
            }
        }
        throw new IllegalStateException("no EVALSHA in INFO commandstats");
    }

    private long usedMemory() {
        for (String line : cli("INFO", "memory").split("\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("no used_memory in INFO memory");
    }

    String cli(String... command) {
        List<String> line = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        line.addAll(List.of(command));
        return ChildProcess.run(line);
    }

    void close() {
        redis.shutdown();
    }
}
