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

    private long aheadLeft;
    private long aheadUntil;

    boolean spendAhead(long now) {
        if (!hasAhead(now)) {
            return false;
        }
        aheadLeft--;
        return true;
    }

    private boolean hasAhead(long now) {
        return aheadLeft > 0 && now - aheadUntil < 0;
    }

    /**
     * Replaces what was counted ahead before, which is spent or past by now: a call is sent only when the requests
     * counted ahead give out, and only its answer counts more.
     */
    void countedAhead(long requests, long until) {
        aheadLeft = requests;
        aheadUntil = until;
    }

    boolean idle(long now) {
        return waiting == null && !hasAhead(now);
    }
}
