package com.meetingreminders.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.RedisMonitor;
import com.meetingreminders.support.RedisServer;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

/**
 * A caller's requests counted ahead, on the real Redis: each count stands for one replica, with a clock that moves only
 * when a test moves it, so that what was counted ahead runs out when the test says. Redis's own monitor tells the calls
 * that counted the caller's requests.
 */
@QuarkusTest
class RequestsCountedAheadTest {

    /** A request each millisecond: the 10 ms counted ahead are ten requests. */
    static final int PER_SECOND = 1_000;

    static final int AHEAD = 10;

    /** Tries of a test whose premise holds only if the machine does not pause for a few hundred milliseconds. */
    static final int ATTEMPTS = 5;

    /** Longer than any pause of a slow machine: a count that took the usual 200 ms would make the calls uncountable. */
    static final Duration MOST_WAIT = Duration.ofSeconds(30);

    @Inject
    RedissonClient redis;

    @Inject
    ReminderKeys keys;

    private final AtomicLong clock = new AtomicLong();
    private final String caller = "ahead-" + UUID.randomUUID();

    private RedisMonitor monitor;

    @BeforeEach
    void monitorTheScriptsCalls() {
        // Redisson sends a script Redis does not know yet as EVAL, and EVALSHA once it does.
        admit(replica(), "script-" + UUID.randomUUID());
        monitor = RedisMonitor.start("evalsha");
    }

    @AfterEach
    void stopMonitoring() {
        monitor.close();
    }

    @Test
    void aClientsNextRequestsGoThroughOnThoseCountedAheadWithoutACall() {
        RequestRate rate = replica();
        for (int i = 0; i <= AHEAD; i++) {
            admit(rate, caller);
        }
        assertThat(callsCounting(caller))
                .as("one request counted, and ten ahead")
                .isEqualTo(1);

        admit(rate, caller);

        assertThat(callsCounting(caller)).as("those counted ahead spent").isEqualTo(2);
    }

    @Test
    void requestsCountedAheadAreNotSpentOnceTheirTimeHasPassed() {
        RequestRate rate = replica();
        admit(rate, caller);
        clock.addAndGet(RequestRate.COUNTED_AHEAD.toNanos() - 1);
        admit(rate, caller);
        assertThat(callsCounting(caller)).as("within the time counted ahead").isEqualTo(1);

        clock.incrementAndGet();
        admit(rate, caller);

        assertThat(callsCounting(caller)).as("once that time has passed").isEqualTo(2);
    }

    @Test
    void callersWhoseRequestsCountedAheadRanOutAreForgotten() {
        RequestRate rate = replica();
        for (int i = 0; i < 100; i++) {
            admit(rate, caller + "-" + i);
        }
        assertThat(rate.callersRemembered())
                .as("each with requests counted ahead")
                .isEqualTo(100);

        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        admit(rate, caller);

        // Forgotten when the call's answer has come, which may be after the request has its own.
        await().atMost(Duration.ofSeconds(30)).until(() -> rate.callersRemembered() == 1);
    }

    @Test
    void aCallerWithLessThanHalfItsBurstLeftIsCountedRequestByRequest() {
        // Its next request due 990 ms from now: ten of its second's worth are left, and it has half its burst again
        // only in 490 ms (Redis's clock is the machine's). A machine that paused for that long before the three were
        // counted has not tested this: it tries again, with another caller.
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            String nearlySpent = "half-burst-" + UUID.randomUUID();
            long setAtMillis = System.currentTimeMillis();
            redis.getBucket(keys.requestRate(nearlySpent), StringCodec.INSTANCE)
                    .set(Long.toString((setAtMillis + 990) * 1_000), Duration.ofMinutes(1));
            RequestRate rate = replica();

            for (int i = 0; i < 3; i++) {
                admit(rate, nearlySpent);
            }

            if (System.currentTimeMillis() - setAtMillis < 400) {
                assertThat(callsCounting(nearlySpent))
                        .as("a call each: none counted ahead")
                        .isEqualTo(3);
                return;
            }
        }
        // Not a failure of the service: the machine never gave the test the moment it needs.
        Assumptions.abort("In " + ATTEMPTS + " attempts, three requests were never counted within 400 ms of the SET");
    }

    @Test
    void twoReplicasCountingAheadLetThroughNoMoreThanTheLimitAndWasteLittleOfIt() {
        RequestRate one = replica();
        RequestRate other = replica();
        // Far more than a second's worth, and sent in far less than the seconds they would take at the rate.
        int requests = 5_000;

        long started = System.nanoTime();
        long through = throughAtOnce(requests, i -> i % 2 == 0 ? one : other);
        long tookMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();

        // A second's worth at once, then one each millisecond; of what each replica counted ahead, some may be left
        // unspent when the requests end (their clocks stand still, so none ran out before).
        assertThat(through).isBetween((long) PER_SECOND - 2 * AHEAD, PER_SECOND + tookMillis * PER_SECOND / 1_000 + 1);
    }

    @Test
    void aCallerWhoseRequestsComeMoreSlowlyThanThoseCountedAheadKeepsItsBurst() {
        RequestRate rate = replica();
        // Each request comes after what the last call counted ahead has had its time. Were those never given back,
        // each request would cost eleven, and the caller would soon be down to half its burst.
        for (int i = 0; i < 100; i++) {
            admit(rate, caller);
            clock.addAndGet(RequestRate.COUNTED_AHEAD.toNanos());
        }

        // Charged for the hundred it sent and the last ten counted ahead, at the most: the rest of its burst is left.
        assertThat(throughAtOnce(850, i -> rate))
                .as("a burst of 850, of the caller's 1,000")
                .isEqualTo(850);
    }

    @Test
    void whatRedissClockHasForgivenIsNotGivenBackAgain() {
        RequestRate one = replica();
        RequestRate other = replica();
        admit(one, caller);
        // The call's due time, its ten counted ahead included, passes on Redis's clock, which takes the key with it:
        // the caller is back to a full burst, and those ten were forgiven with the rest.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !redis.getBucket(keys.requestRate(caller), StringCodec.INSTANCE)
                        .isExists());
        clock.addAndGet(RequestRate.COUNTED_AHEAD.toNanos());

        long burst = throughAtOnce(PER_SECOND, i -> other);
        long dueAfterBurst = nextDueMicros();
        // Its next call gives back the ten it counted ahead, were they still owed.
        throughAtOnce(1, i -> one);
        long dueAfterGiveBack = nextDueMicros();

        assertThat(burst).as("the caller's full burst").isEqualTo(PER_SECOND);
        if (dueAfterBurst == 0 || dueAfterGiveBack == 0) {
            // Not a failure of the service: the key goes as the due time passes, a second after the burst.
            Assumptions.abort("The machine paused for the second the burst's due time lasted, before it was read");
        }
        assertThat(dueAfterGiveBack)
                .as("when the caller's next request is due (µs): no sooner than the burst left it")
                .isGreaterThanOrEqualTo(dueAfterBurst);
    }

    @Test
    void aCountThatRedisDidNotAnswerInTimeIsNotSentAgain() {
        try (RedisServer server = RedisServer.start()) {
            // Like the service's client, which sends a command again once after its timeout; here a short one, so that
            // it would come while Redis is still paused.
            Config config = new Config().setCodec(StringCodec.INSTANCE).setUseScriptCache(true);
            config.useSingleServer()
                    .setAddress(server.address())
                    .setTimeout(300)
                    .setRetryAttempts(1)
                    .setRetryDelay(new ConstantDelay(Duration.ofMillis(100)));
            RedissonClient slowRedis = Redisson.create(config);
            try {
                RequestRate rate = new RequestRate(slowRedis, keys, PER_SECOND, clock::get, Duration.ofMillis(200));
                admit(rate, "script-" + UUID.randomUUID());
                server.cli("CONFIG", "RESETSTAT");
                server.cli("CLIENT", "PAUSE", "1500", "WRITE");

                admit(rate, caller);

                // Redis runs the paused commands together when the pause ends, before it reads another.
                await().atMost(Duration.ofSeconds(30)).until(() -> scriptCalls(server) > 0);
                assertThat(scriptCalls(server))
                        .as("runs of the count that Redis did not answer within the request's wait")
                        .isEqualTo(1);
            } finally {
                slowRedis.shutdown();
            }
        }
    }

    private static long scriptCalls(RedisServer server) {
        Matcher calls = Pattern.compile("cmdstat_evalsha:calls=(\\d+)").matcher(server.cli("INFO", "commandstats"));
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }

    /**
     * When the caller's next request is due at its rate, as Redis keeps it (epoch µs, Redis's clock); 0 once that has
     * passed, when the key is gone.
     */
    private long nextDueMicros() {
        Object due =
                redis.getBucket(keys.requestRate(caller), StringCodec.INSTANCE).get();
        return due == null ? 0 : Long.parseLong(due.toString());
    }

    /** How many of {@code requests} of the caller's, sent at once to the replicas {@code replicaOf} names, go through. */
    private long throughAtOnce(int requests, IntFunction<RequestRate> replicaOf) {
        List<CompletableFuture<Boolean>> answers = IntStream.range(0, requests)
                .mapToObj(i -> replicaOf
                        .apply(i)
                        .admit(caller)
                        .map(ignored -> true)
                        .onFailure(LimitExceededException.class)
                        .recoverWithItem(false)
                        .subscribeAsCompletionStage())
                .toList();
        return answers.stream().filter(CompletableFuture::join).count();
    }

    private RequestRate replica() {
        return new RequestRate(redis, keys, PER_SECOND, clock::get, MOST_WAIT);
    }

    private static void admit(RequestRate rate, String caller) {
        rate.admit(caller).await().atMost(MOST_WAIT.plusSeconds(5));
    }

    /**
     * The calls so far that counted {@code counted}'s requests. Redis runs commands in the order they came, and
     * monitors them in that order: once the monitor has shown another caller's call, made now, it has shown every call
     * before it.
     */
    private long callsCounting(String counted) {
        String marker = "marker-" + UUID.randomUUID();
        admit(replica(), marker);
        String markersKey = keys.requestRate(marker);
        String callersKey = keys.requestRate(counted);
        await().atMost(Duration.ofSeconds(30)).until(() -> monitor.commands().stream()
                .anyMatch(command -> command.line().contains(markersKey)));
        return monitor.commands().stream()
                .filter(command -> command.line().contains(callersKey))
                .count();
    }
}
