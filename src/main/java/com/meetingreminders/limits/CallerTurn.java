package com.meetingreminders.limits;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;

/**
 * A caller's count on one replica, held by {@link RequestRate}: changed only within its map's compute for the caller,
 * which is what lets these fields be plain ones.
 */
final class CallerTurn {

    /** The requests waiting for the next call, while a call is on its way; null when none is. */
    Queue<CompletableFuture<Long>> waiting;

    /** What the last call counted ahead, of which {@code aheadLeft} requests are not spent yet. */
    private CountedAhead ahead = CountedAhead.NONE;

    private long aheadLeft;

    boolean spendAhead(long now) {
        if (!hasAhead(now)) {
            return false;
        }
        aheadLeft--;
        return true;
    }

    private boolean hasAhead(long now) {
        return aheadLeft > 0 && now - ahead.untilNanos() < 0;
    }

    /**
     * Replaces what was counted ahead before, which is spent or past by now: a call is sent only when the requests
     * counted ahead give out, and only its answer counts more.
     */
    void countedAhead(CountedAhead counted) {
        ahead = counted;
        aheadLeft = counted.requests();
    }

    /**
     * What was counted ahead and not spent in its time, for the next call to give back; taken only when none is left to
     * spend (a call is sent only then), so that it is given back once. A turn the once-a-second tidy forgot before its
     * next call gives back nothing: the caller has that much less of its burst, at most {@code COUNTED_AHEAD} of its
     * rate, until it is back to a full one.
     */
    CountedAhead takeUnspent() {
        if (aheadLeft == 0) {
            return CountedAhead.NONE;
        }
        CountedAhead unspent = new CountedAhead(aheadLeft, ahead.untilNanos(), ahead.dueMicros());
        aheadLeft = 0;
        return unspent;
    }

    /** Nothing on its way, and all that was counted ahead spent: nothing to spend or give back, and the turn may go. */
    boolean spent() {
        return waiting == null && aheadLeft == 0;
    }

    /** Nothing on its way and nothing left to spend now: the tidy forgets it, and what it would give back. */
    boolean idle(long now) {
        return waiting == null && !hasAhead(now);
    }
}
