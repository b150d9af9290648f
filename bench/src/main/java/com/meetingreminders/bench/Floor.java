package com.meetingreminders.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.redisson.Redisson;
import org.redisson.api.RScript;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * The floor: what Redis alone gives, with no service and no webhook. A bare subscriber of expiration events, and a
 * bare ZSET poller, on the same Redis with the same number of keys.
 */
final class Floor implements AutoCloseable {

    private static final int CHUNK = 5_000;
    private static final String SET_AT =
            "for i = 2, #ARGV do redis.call('SET', ARGV[i], '', 'PXAT', ARGV[1]) end return 0";
    private static final String SET_FOR =
            "for i = 2, #ARGV do redis.call('SET', ARGV[i], '', 'PX', ARGV[1]) end return 0";
    static final String ZADD_AT = "for i = 2, #ARGV do redis.call('ZADD', KEYS[1], ARGV[1], ARGV[i]) end return 0";
    static final String POP = "local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0,"
            + " 1000) if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end return due";
    private static final String UNLINK = "for i = 1, #ARGV do redis.call('UNLINK', ARGV[i]) end return 0";

    final RedissonClient redis;
    final String prefix = "bench-floor-" + System.currentTimeMillis() + ":";
    /**
     * How long after the due instant the floor is waited for. Expiration events with many keys pending arrive
     * minutes late; the result then reports what had arrived by this deadline.
     */
    private final long patienceMillis;

    Floor(String address, Duration patience) {
        this.patienceMillis = patience.toMillis();
        redis = client(address);
    }

    /** A client of the one Redis node at {@code address} that reads and writes strings, as every floor and peer uses. */
    static RedissonClient client(String address) {
        Config config = new Config().setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(address);
        return Redisson.create(config);
    }

    /** {@code count} keys expiring at one instant among {@code pending} keys with a TTL a week away. */
    Result subscriber(String name, int count, long pending) throws InterruptedException {
        List<String> far = keys(name + ":far:", pending);
        run(SET_FOR, List.of(), Long.toString(7L * 24 * 3600 * 1000), far);
        Queue<Result.Arrival> arrivals = new ConcurrentLinkedQueue<>();
        String duePrefix = prefix + name + ":due:";
        long dueAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS).toEpochMilli();
        RTopic expired = redis.getTopic("__keyevent@0__:expired", StringCodec.INSTANCE);
        int listener = expired.addListener(String.class, (channel, key) -> {
            if (key.startsWith(duePrefix)) {
                arrivals.add(new Result.Arrival(key, dueAt, System.currentTimeMillis()));
            }
        });
        run(SET_AT, List.of(), Long.toString(dueAt), keys(name + ":due:", count));
        awaitCount(arrivals, count, dueAt + patienceMillis);
        expired.removeListener(listener);
        run(UNLINK, List.of(), null, far);
        return Result.ofArrivals(name, "floor: expired events", count, new ArrayList<>(arrivals), dueAt)
                .figure("pending_keys_with_ttl", pending)
                .figure("waited_ms", patienceMillis);
    }

    /** {@code count} members of a ZSET due at one instant, popped by a loop that polls as fast as it can. */
    Result poller(String name, int count) {
        String zset = prefix + name + ":zset";
        long dueAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS).toEpochMilli();
        run(ZADD_AT, List.of(zset), Long.toString(dueAt), keys(name + ":", count));
        List<Result.Arrival> arrivals = new ArrayList<>();
        RScript script = redis.getScript(StringCodec.INSTANCE);
        while (arrivals.size() < count && System.currentTimeMillis() < dueAt + patienceMillis) {
            List<String> due = script.eval(
                    RScript.Mode.READ_WRITE,
                    POP,
                    RScript.ReturnType.LIST,
                    List.of(zset),
                    Long.toString(System.currentTimeMillis()));
            long now = System.currentTimeMillis();
            for (String member : due) {
                arrivals.add(new Result.Arrival(member, dueAt, now));
            }
        }
        return Result.ofArrivals(name, "floor: ZSET poller", count, arrivals, dueAt);
    }

    List<String> keys(String infix, long count) {
        List<String> keys = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            keys.add(prefix + infix + i);
        }
        return keys;
    }

    void run(String source, List<Object> keys, String first, List<String> values) {
        RScript script = redis.getScript(StringCodec.INSTANCE);
        for (int from = 0; from < values.size(); from += CHUNK) {
            List<String> args = new ArrayList<>();
            if (first != null) {
                args.add(first);
            }
            args.addAll(values.subList(from, Math.min(values.size(), from + CHUNK)));
            script.eval(RScript.Mode.READ_WRITE, source, RScript.ReturnType.LONG, keys, args.toArray());
        }
    }

    private static void awaitCount(Queue<?> arrivals, int count, long deadline) throws InterruptedException {
        while (arrivals.size() < count && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        redis.shutdown();
    }
}
