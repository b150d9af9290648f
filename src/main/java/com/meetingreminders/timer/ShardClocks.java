package com.meetingreminders.timer;

import io.quarkus.logging.Log;
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
 *
 * <p>Sweeps that ran past their deadline and were still answered, twice in a row, found Redis slow, not hung: every
 * call would then miss its deadline and nothing would be delivered. Until a sweep runs within the deadline it would
 * have had, the shard's calls carry none, and are taken as they were before deadlines: late, rather than not at all.
 */
final class ShardClocks {

    /** No check: for a shard whose first sweep has not answered yet, and for the delivery warm-up's own keys. */
    static final long NO_DEADLINE = 0;

    /** Late yet answered sweeps in a row that make a shard slow. */
    static final int LATE_SWEEPS_WHEN_SLOW = 2;

    /** The shard's clock as its last sweep read it; 0 until one has (Redis's clock never reads 0). */
    private final long[] redisMillis;

    private final long[] readAtNanos;
    private final int[] lateInARow;

    ShardClocks(int shards) {
        this.redisMillis = new long[shards];
        this.readAtNanos = new long[shards];
        this.lateInARow = new int[shards];
    }

    /**
     * The clock a sweep of the shard read, {@code redisNowMillis}; {@code wouldBeDeadline} is the deadline the sweep
     * had, or would have had while the shard is slow.
     */
    synchronized void read(int shard, long redisNowMillis, long wouldBeDeadline) {
        boolean late = wouldBeDeadline != NO_DEADLINE && redisNowMillis > wouldBeDeadline;
        boolean wasSlow = isSlow(shard);
        lateInARow[shard] = late ? lateInARow[shard] + 1 : 0;
        if (isSlow(shard) != wasSlow) {
            if (isSlow(shard)) {
                Log.warnf(
                        "Redis ran %d sweeps of shard %d in a row past their deadline (the last by %d ms) and still"
                                + " answered: it is slow, not hung, and the shard's sweeps and claims carry no deadline"
                                + " until it is quick again",
                        LATE_SWEEPS_WHEN_SLOW, shard, redisNowMillis - wouldBeDeadline);
            } else {
                Log.infof("Redis runs the sweeps of shard %d within their deadline again", shard);
            }
        }
        redisMillis[shard] = redisNowMillis;
        readAtNanos[shard] = System.nanoTime();
    }

    /**
     * One late sweep alone is what a hang leaves (sent just before Redis resumed) or a failover to a master whose clock
     * is ahead: neither makes Redis slow.
     */
    private boolean isSlow(int shard) {
        return lateInARow[shard] >= LATE_SWEEPS_WHEN_SLOW;
    }

    /** The deadline to send with a call of the shard: {@link #wouldBeDeadline}, or none while Redis is slow. */
    synchronized long deadline(int shard, Duration timeout) {
        return sent(shard, wouldBeDeadline(shard, timeout));
    }

    /** What to send of the deadline a call would have: none while Redis is slow. */
    synchronized long sent(int shard, long wouldBeDeadline) {
        return isSlow(shard) ? NO_DEADLINE : wouldBeDeadline;
    }

    /**
     * The deadline, in the shard's Redis time, of a call sent now whose client waits {@code timeout}: a quarter of it
     * is kept for the reply, which Redis that has just resumed writes only after the other calls it had waiting.
     */
    synchronized long wouldBeDeadline(int shard, Duration timeout) {
        if (redisMillis[shard] == 0) {
            return NO_DEADLINE;
        }
        long elapsedMillis = (System.nanoTime() - readAtNanos[shard]) / 1_000_000;
        return redisMillis[shard] + elapsedMillis + timeout.toMillis() * 3 / 4;
    }
}
