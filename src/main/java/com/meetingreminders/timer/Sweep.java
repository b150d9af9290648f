package com.meetingreminders.timer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one sweep found: the entries it took, what the sweeper needs to decide when to sweep next, and how many due
 * entries it left on the schedule (every due one when it took none, as while delivery is paused).
 */
public record Sweep(
        long redisNowMillis, boolean reconciled, OptionalLong nextDueMillis, long dueLeft, List<ReminderRef> taken) {

    /**
     * How long until a sweep may take the earliest entry left (zero if it already may), or empty when the schedule is
     * empty.
     */
    public Optional<Duration> untilNextTakeable(Duration grace) {
        if (nextDueMillis.isEmpty()) {
            return Optional.empty();
        }
        long takeableAt = nextDueMillis.getAsLong() + grace.toMillis();
        return Optional.of(Duration.ofMillis(Math.max(0, takeableAt - redisNowMillis)));
    }

    /** This sweep of one shard together with another's: every shard must still be reconciled. */
    Sweep and(Sweep other) {
        List<ReminderRef> both = new ArrayList<>(taken);
        both.addAll(other.taken);
        OptionalLong earliest = nextDueMillis.isEmpty()
                ? other.nextDueMillis
                : other.nextDueMillis.isEmpty()
                        ? nextDueMillis
                        : OptionalLong.of(Math.min(nextDueMillis.getAsLong(), other.nextDueMillis.getAsLong()));
        // The later clock reading: it makes the wait until the next entry shorter, never longer.
        return new Sweep(
                Math.max(redisNowMillis, other.redisNowMillis),
                reconciled && other.reconciled,
                earliest,
                dueLeft + other.dueLeft,
                both);
    }
}
