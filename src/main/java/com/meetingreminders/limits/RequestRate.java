package com.meetingreminders.limits;

import com.meetingreminders.config.RemindersConfig;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
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
 *
 * <p>A call also counts up to {@link #COUNTED_AHEAD} of the caller's rate ahead, while the caller keeps half its burst,
 * and the replica lets the caller's next requests through on those without a call, until that much time has passed
 * since the call went out. A client's requests one after another then wait for Redis once in several, not each time.
 * What the caller did not send in that time, the replica's next call for the caller gives back, as far as Redis's clock
 * has not passed them yet: a caller whose requests come more slowly than those counted ahead pays only for the
 * requests it sent, and keeps its burst.
 */
@ApplicationScoped
public class RequestRate {

    /**
     * The longest a request waits for its count. Redis answers in well under a millisecond; a count that takes longer
     * than this is worth less than the request.
     */
    private static final Duration MOST_WAIT = Duration.ofMillis(200);

    /** Most requests one call counts: bounds a call's arguments and the work of one script run. */
    private static final int MOST_COUNTED_TOGETHER = 1_000;

    /**
     * How much of a caller's rate one call may count ahead. Over any stretch of time a caller may get this much of its
     * rate more than an exact count would let through (requests counted before it and spent in it), and a client's
     * requests that come more often than this each save a round trip. At the default 50 a second it is not one
     * request: every request is counted as it comes.
     */
    static final Duration COUNTED_AHEAD = Duration.ofMillis(10);

    /** How often callers whose requests counted ahead have run out are forgotten. */
    private static final long TIDY_EVERY_NANOS = Duration.ofSeconds(1).toNanos();

    private final RequestRateScript script;
    private final int perSecond;
    private final LongSupplier ticker;
    private final Duration mostWait;
    private final AtomicBoolean unavailable = new AtomicBoolean();
    /** Each caller with a count on its way or requests counted ahead; a caller's entry changes only in compute. */
    private final Map<String, CallerTurn> callers = new ConcurrentHashMap<>();

    private final AtomicLong lastTidy;

    @Inject
    RequestRate(RedissonClient redis, ReminderKeys keys, RemindersConfig config) {
        this(redis, keys, config.limits().requestsPerSecond(), System::nanoTime, MOST_WAIT);
    }

    /** With a ticker that tests move, and a wait that no pause of a slow machine reaches in tests that count calls. */
    RequestRate(RedissonClient redis, ReminderKeys keys, int perSecond, LongSupplier ticker, Duration mostWait) {
        this.script = new RequestRateScript(redis, keys, perSecond, COUNTED_AHEAD, ticker, mostWait);
        this.perSecond = perSecond;
        this.ticker = ticker;
        this.mostWait = mostWait;
        this.lastTidy = new AtomicLong(ticker.getAsLong());
    }

    /**
     * Counts one request of the caller; fails with {@link LimitExceededException} when it comes too soon. The request's
     * longest wait ends its answer, not the stream of its answer: Mutiny's {@code ifNoItem} could signal its timeout
     * after the answer had come (both at once, the call's own time limit being as long), and that second signal failed
     * the request with a 500.
     */
    public Uni<Void> admit(String caller) {
        return Uni.createFrom()
                .completionStage(() -> count(caller).orTimeout(mostWait.toMillis(), TimeUnit.MILLISECONDS))
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
     * The microseconds the request must wait before it may come again, or 0 when it goes ahead (and is counted). A
     * request that finds one counted ahead goes through on it. Otherwise the first request of a caller's turn sends the
     * count, and those that come while it is on its way are counted together when it is back.
     */
    private CompletableFuture<Long> count(String caller) {
        long now = ticker.getAsLong();
        CompletableFuture<Long> answer = new CompletableFuture<>();
        boolean[] countedAhead = {false};
        boolean[] sends = {false};
        CountedAhead[] givenBack = {CountedAhead.NONE};
        callers.compute(caller, (key, known) -> {
            CallerTurn turn = known == null ? new CallerTurn() : known;
            if (turn.spendAhead(now)) {
                countedAhead[0] = true;
                return turn.spent() ? null : turn;
            } else if (turn.waiting == null) {
                // This request starts the caller's turn: it goes in the call it sends, and the queue waits for the
                // next.
                sends[0] = true;
                givenBack[0] = turn.takeUnspent();
                turn.waiting = new ArrayDeque<>();
            } else {
                turn.waiting.add(answer);
            }
            return turn;
        });
        if (countedAhead[0]) {
            answer.complete(0L);
        } else if (sends[0]) {
            send(caller, List.of(answer), givenBack[0]);
        }
        return answer;
    }

    /** Counts the group in one call, which gives back what the last call counted ahead and the caller did not send. */
    private void send(String caller, List<CompletableFuture<Long>> group, CountedAhead givenBack) {
        script.count(caller, group.size(), givenBack).whenComplete((reply, failure) -> {
            CountedAhead counted = CountedAhead.NONE;
            try {
                if (failure != null) {
                    group.forEach(answer -> answer.completeExceptionally(failure));
                } else {
                    for (int i = 0; i < group.size(); i++) {
                        group.get(i).complete(reply.waitMicrosOf(i));
                    }
                    counted = reply.ahead();
                }
            } finally {
                // Whatever this call's answer, the caller's turn goes on: no request may wait behind it for ever.
                sendWaiting(caller, counted);
            }
        });
    }

    /**
     * The requests of the caller's that came meanwhile and still wait go through on those the call counted ahead, as
     * far as they go, and the next call counts the rest; with none, the caller's turn ends. A request that has its
     * answer already (it went through when its wait ran out) is dropped: after an outage of Redis, only the requests
     * still waiting are counted.
     */
    private void sendWaiting(String caller, CountedAhead counted) {
        long now = ticker.getAsLong();
        List<CompletableFuture<Long>> throughAhead = new ArrayList<>();
        List<CompletableFuture<Long>> group = new ArrayList<>();
        CountedAhead[] givenBack = {CountedAhead.NONE};
        callers.computeIfPresent(caller, (key, turn) -> {
            turn.countedAhead(counted);
            while (group.size() < MOST_COUNTED_TOGETHER && !turn.waiting.isEmpty()) {
                CompletableFuture<Long> next = turn.waiting.poll();
                if (next.isDone()) {
                    continue;
                }
                (turn.spendAhead(now) ? throughAhead : group).add(next);
            }
            if (group.isEmpty()) {
                turn.waiting = null;
                return turn.spent() ? null : turn;
            }
            givenBack[0] = turn.takeUnspent();
            return turn;
        });
        throughAhead.forEach(answer -> answer.complete(0L));
        if (!group.isEmpty()) {
            send(caller, group, givenBack[0]);
        }
        forgetIdleCallers(now);
    }

    /** The callers this replica keeps a count of: those with a call on its way or requests counted ahead. */
    int callersRemembered() {
        return callers.size();
    }

    /** At most once a second: a caller whose requests counted ahead ran out with no request after them. */
    private void forgetIdleCallers(long now) {
        long last = lastTidy.get();
        if (now - last < TIDY_EVERY_NANOS || !lastTidy.compareAndSet(last, now)) {
            return;
        }
        for (String caller : callers.keySet()) {
            callers.computeIfPresent(caller, (key, turn) -> turn.idle(now) ? null : turn);
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
                    failure instanceof TimeoutException ? "no answer within " + mostWait.toMillis() + " ms" : failure);
        }
    }

    private void recovered() {
        if (unavailable.compareAndSet(true, false)) {
            Log.info("Request rates are counted again");
        }
    }
}
