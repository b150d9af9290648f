package com.meetingreminders.timer;

import java.time.Duration;

/**
 * What time each shard's Redis says it is: its last sweep's reading, moved on by this replica's monotonic clock. Redis
 * ran the sweep before its reply was read, so the reckoning runs behind Redis while the shard stays on that host and
 * its clock runs steadily; after a failover to a host whose clock is behind, or a clock set back, it runs ahead until
 * the next sweep answers, which only weakens the check below.
 *
 * <p>A call's deadline in Redis time follows: when its client stops waiting, less a margin for the reply's way back.
 * Redis that hangs keeps what it is sent in its connections and runs it when it resumes, long after that: a sweep or
 * claim run then would lease entries to a caller that never hears of them, and they would wait out the lease, or be
 * skipped once their meeting started. Past its deadline, a script leases nothing, and the next sweep takes what is due.
 */
final class ShardClocks {

    /** No check: for a shard whose first sweep has not answered yet, and for the delivery warm-up's own keys. */
    static final long NO_DEADLINE = 0;

    private final long[] redisMillis;
    private final long[] readAtNanos;
    private final boolean[] known;

    ShardClocks(int shards) {
        this.redisMillis = new long[shards];
        this.readAtNanos = new long[shards];
        this.known = new boolean[shards];
    }

    synchronized void read(int shard, long redisNowMillis) {
        redisMillis[shard] = redisNowMillis;
        readAtNanos[shard] = System.nanoTime();
        known[shard] = true;
    }

    /**
     * The deadline, in the shard's Redis time, of a call sent now whose client waits {@code timeout}: a quarter of it
     * is kept for the reply, which Redis that has just resumed writes only after the other calls it had waiting.
     */
    synchronized long deadline(int shard, Duration timeout) {
        if (!known[shard]) {
            return NO_DEADLINE;
        }
        long elapsedMillis = (System.nanoTime() - readAtNanos[shard]) / 1_000_000;
        return redisMillis[shard] + elapsedMillis + timeout.toMillis() * 3 / 4;
    }
}
