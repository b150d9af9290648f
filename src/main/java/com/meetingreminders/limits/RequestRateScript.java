package com.meetingreminders.limits;

import com.meetingreminders.timer.LuaScript;
import com.meetingreminders.timer.ReminderKeys;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;

/**
 * One call of the request-rate script for a caller, and the reading of its reply: counts a group of the caller's
 * requests, and gives back what the last call counted ahead and the caller did not send.
 */
final class RequestRateScript {

    private static final LuaScript SCRIPT = LuaScript.load("request-rate");

    private final RScript sentOnce;
    private final ReminderKeys keys;
    private final LongSupplier ticker;
    private final Duration mostWait;
    private final long intervalNanos;
    /** The script's arguments but those of each call: the steady rate's interval, the burst, the most ahead. */
    private final String interval;

    private final String tolerance;
    private final String mostAhead;

    RequestRateScript(
            RedissonClient redis,
            ReminderKeys keys,
            int perSecond,
            Duration countedAhead,
            LongSupplier ticker,
            Duration mostWait) {
        this.sentOnce = LuaScript.sentOnce(redis, mostWait);
        this.keys = keys;
        this.ticker = ticker;
        this.mostWait = mostWait;
        // At least a microsecond: the script counts in whole ones.
        long intervalMicros = Math.max(1, 1_000_000L / perSecond);
        this.intervalNanos = TimeUnit.MICROSECONDS.toNanos(intervalMicros);
        this.interval = Long.toString(intervalMicros);
        this.tolerance = Long.toString(1_000_000L - intervalMicros);
        this.mostAhead = Long.toString(countedAhead.toNanos() / intervalNanos);
    }

    /** What Redis answered: how many of the group go ahead, how long the others must wait, what was counted ahead. */
    record Reply(long admitted, long waitMicros, CountedAhead ahead) {

        /** The microseconds the group's request at this position must wait, or 0 when it goes ahead (counted). */
        long waitMicrosOf(int position) {
            return position < admitted ? 0 : waitMicros;
        }
    }

    /**
     * Counts the caller's requests in one call. It fails when the call cannot be sent, when Redis answers with an error
     * or does not answer within the longest wait, and with a reply that cannot be read.
     */
    CompletableFuture<Reply> count(String caller, int requests, CountedAhead givenBack) {
        long sentAt = ticker.getAsLong();
        List<String> args = List.of(
                interval,
                tolerance,
                Integer.toString(requests),
                mostAhead,
                Long.toString(givenBack.requests()),
                Long.toString(givenBack.dueMicros()));
        CompletableFuture<List<Long>> call;
        try {
            call = SCRIPT.numbersAsync(sentOnce, List.of(keys.requestRate(caller)), args)
                    .toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        // The longest wait bounds the whole call, as it bounds each request: Redisson's timeout starts only once the
        // command is written, and a Redis that takes no connections would hold the caller's turn, and the requests
        // waiting behind it, for as long as connecting takes.
        return call.thenApply(numbers -> read(numbers, sentAt)).orTimeout(mostWait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The requests counted ahead may be spent until the call's send time (before Redis counted them) plus their own
     * span at the caller's rate.
     */
    private Reply read(List<Long> numbers, long sentAt) {
        long ahead = numbers.get(2);
        return new Reply(
                numbers.get(0),
                numbers.get(1),
                new CountedAhead(ahead, sentAt + ahead * intervalNanos, numbers.get(3)));
    }
}
