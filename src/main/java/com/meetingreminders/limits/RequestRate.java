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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.redisson.api.RedissonClient;

/**
 * Requests a second for each caller, counted in Redis so that every replica counts against the same limit
 * ({@code reminders.limits.requests-per-second}; a second's worth may come at once). While Redis does not answer, the
 * requests go through: the service stays available, and the limits kept in the database still hold.
 *
 * <p>A replica has at most one count of a caller's on its way to Redis. The caller's requests that come meanwhile wait
 * for it and are then counted in one call, as if they had come one after another: the answers are those of one call
 * each, for one round trip. Under a caller's concurrent requests that round trip a request was a quarter of a
 * replica's CPU through creates (Redisson's client and its threads, measured with async-profiler).
 */
@ApplicationScoped
public class RequestRate {

    /**
     * The longest a request waits for its count. Redis answers in well under a millisecond; a count that takes longer
     * than this is worth less than the request.
     */
    private static final Duration MOST_WAIT = Duration.ofMillis(200);

    private static final LuaScript COUNT = LuaScript.load("request-rate");

    /** Most requests one call counts: bounds a call's arguments and the work of one script run. */
    private static final int MOST_COUNTED_TOGETHER = 1_000;

    private final RedissonClient redis;
    private final ReminderKeys keys;
    private final int perSecond;
    private final List<String> args;
    private final AtomicBoolean unavailable = new AtomicBoolean();
    /** Each caller whose count is on its way, with the requests waiting for the next; changed only in compute. */
    private final Map<String, Queue<CompletableFuture<Long>>> waiting = new ConcurrentHashMap<>();

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
                .completionStage(() -> count(caller))
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

    /**
     * The microseconds the request must wait before it may come again, or 0 when it goes ahead (and is counted). The
     * first request of a caller's turn sends the count; those that come while it is on its way are counted together
     * when it is back.
     */
    private CompletionStage<Long> count(String caller) {
        CompletableFuture<Long> answer = new CompletableFuture<>();
        boolean[] sends = {false};
        waiting.compute(caller, (key, queue) -> {
            if (queue == null) {
                // This request starts the caller's turn: it goes in the call it sends, and the queue waits for the
                // next.
                sends[0] = true;
                return new ArrayDeque<>();
            }
            queue.add(answer);
            return queue;
        });
        if (sends[0]) {
            send(caller, List.of(answer));
        }
        return answer;
    }

    private void send(String caller, List<CompletableFuture<Long>> group) {
        List<String> counted = new ArrayList<>(args);
        counted.add(Integer.toString(group.size()));
        CompletableFuture<List<Long>> call;
        try {
            call = COUNT.numbersAsync(redis, List.of(keys.requestRate(caller)), counted)
                    .toCompletableFuture();
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        // A time limit of the call's own, as each request has: the requests that wait behind a call to a Redis that
        // does not answer go through after MOST_WAIT, and so does the caller's turn, instead of after Redisson's
        // timeouts and retries.
        call.orTimeout(MOST_WAIT.toMillis(), TimeUnit.MILLISECONDS).whenComplete((reply, failure) -> {
            try {
                for (int i = 0; i < group.size(); i++) {
                    if (failure != null) {
                        group.get(i).completeExceptionally(failure);
                    } else {
                        group.get(i).complete(i < reply.get(0) ? 0 : reply.get(1));
                    }
                }
            } catch (RuntimeException unreadable) {
                group.forEach(answer -> answer.completeExceptionally(unreadable));
            } finally {
                // Whatever this call's answer, the caller's turn goes on: no request may wait behind it for ever.
                sendWaiting(caller);
            }
        });
    }

    /**
     * The next call counts the caller's requests that came meanwhile and still wait; with none, the caller's turn
     * ends. A request that has its answer already (it went through when its wait ran out) is dropped: after an outage
     * of Redis, only the requests still waiting are counted.
     */
    private void sendWaiting(String caller) {
        List<CompletableFuture<Long>> group = new ArrayList<>();
        waiting.computeIfPresent(caller, (key, queue) -> {
            while (group.size() < MOST_COUNTED_TOGETHER && !queue.isEmpty()) {
                CompletableFuture<Long> next = queue.poll();
                if (!next.isDone()) {
                    group.add(next);
                }
            }
            return group.isEmpty() ? null : queue;
        });
        if (!group.isEmpty()) {
            send(caller, group);
        }
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
