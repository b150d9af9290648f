package com.meetingreminders.limits;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.timer.LuaScript;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.redisson.api.RedissonClient;

/**
 * Requests a second for each caller, counted in Redis so that every replica counts against the same limit
 * ({@code reminders.limits.requests-per-second}; a second's worth may come at once). While Redis does not answer, the
 * requests go through: the service stays available, and the limits kept in the database still hold.
 */
@ApplicationScoped
public class RequestRate {

    /**
     * The longest a request waits for its count. Redis answers in well under a millisecond; a count that takes longer
     * than this is worth less than the request.
     */
    private static final Duration MOST_WAIT = Duration.ofMillis(200);

    private static final LuaScript COUNT = LuaScript.load("request-rate");

    private final RedissonClient redis;
    private final ReminderKeys keys;
    private final int perSecond;
    private final List<String> args;
    private final AtomicBoolean unavailable = new AtomicBoolean();

    RequestRate(RedissonClient redis, ReminderKeys keys, RemindersConfig config) {
        this.redis = redis;
        this.keys = keys;
        this.perSecond = config.limits().requestsPerSecond();
        // At least a microsecond: the script counts in whole ones.
        long interval = Math.max(1, 1_000_000L / perSecond);
        this.args = List.of(Long.toString(interval), Long.toString(1_000_000L - interval));
    }

    /** Counts one request of the caller; fails with {@link LimitExceededException} when it comes too soon. */
    public Uni<Void> admit(String caller) {
        return Uni.createFrom()
                .completionStage(() -> COUNT.numberAsync(redis, List.of(keys.requestRate(caller)), args))
                .ifNoItem()
                .after(MOST_WAIT)
                .fail()
                .onItemOrFailure()
                .transformToUni((waitMicros, failure) -> {
                    if (failure != null) {
                        letThrough(failure);
                        return Uni.createFrom().voidItem();
                    }
                    recovered();
                    return waitMicros > 0
                            ? Uni.createFrom().failure(tooSoon(Duration.of(waitMicros, ChronoUnit.MICROS)))
                            : Uni.createFrom().voidItem();
                });
    }

    private LimitExceededException tooSoon(Duration wait) {
        return new LimitExceededException(
                "Over the limit requests-per-second: " + perSecond + " requests a second for each caller. Try again in "
                        + wait.toMillis() + " ms.",
                wait);
    }

    private void letThrough(Throwable failure) {
        if (unavailable.compareAndSet(false, true)) {
            Log.warnf(
                    "Request rates cannot be counted (Redis: %s); requests go through until it answers again",
                    failure instanceof TimeoutException ? "no answer within " + MOST_WAIT.toMillis() + " ms" : failure);
        }
    }

    private void recovered() {
        if (unavailable.compareAndSet(true, false)) {
            Log.info("Request rates are counted again");
        }
    }
}
