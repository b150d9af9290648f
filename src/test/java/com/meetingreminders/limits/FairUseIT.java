package com.meetingreminders.limits;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.AtOnce;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.RedisServer;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.Tokens;
import io.restassured.http.ContentType;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The limits kept in Redis, on packaged replicas: one caller's requests a second and open streams count the same
 * whichever replica it calls, and while Redis is away requests go through and the limits kept in the database hold.
 */
class FairUseIT {

    private static final Duration STREAM_LEASE = Duration.ofSeconds(3);

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    private final String caller = "fair-use-" + UUID.randomUUID();

    @Test
    void twoReplicasCountOneCallersRequestsAgainstOneRate() {
        Map<String, String> oneASecond = settings(Map.of("reminders.limits.requests-per-second", "1"));
        try (Replica a = startAsync("rate-a", oneASecond).join();
                Replica b = startAsync("rate-b", oneASecond).join()) {
            warmUp(a);
            warmUp(b);
            List<Integer> fromA = new ArrayList<>();
            List<Integer> fromB = new ArrayList<>();
            long started = System.nanoTime();
            for (int i = 0; i < 10; i++) {
                fromA.add(listMeetings(a));
                fromB.add(listMeetings(b));
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            // At one a second, shared, no more can have gone through in the time the requests took, however long.
            long allowed = 1 + took.toSeconds();
            long through = countOf(200, fromA) + countOf(200, fromB);
            assertThat(through).isBetween(1L, allowed);
            // Each replica refused some: neither counted only its own.
            assertThat(fromA).contains(429);
            assertThat(fromB).contains(429);

            // All at once, from another caller: the requests that come while a count is on its way to Redis are
            // counted together, and together they get no more through than one after another.
            String another = "fair-use-" + UUID.randomUUID();
            long startedAtOnce = System.nanoTime();
            List<Integer> atOnce = AtOnce.calls(40, i -> listMeetings(i % 2 == 0 ? a : b, another));
            Duration tookAtOnce = Duration.ofNanos(System.nanoTime() - startedAtOnce);
            assertThat(countOf(200, atOnce)).isBetween(1L, 1 + tookAtOnce.toSeconds());
            assertThat(countOf(429, atOnce)).isEqualTo(atOnce.size() - countOf(200, atOnce));
        }
    }

    @Test
    void twoReplicasCountOneCallersOpenStreamsAndFreeThoseOfAReplicaThatDied() {
        Map<String, String> twoStreams = settings(Map.of(
                "reminders.limits.open-streams", "2", "reminders.limits.stream-lease", STREAM_LEASE.toSeconds() + "s"));
        try (Replica a = startAsync("streams-a", twoStreams).join();
                Replica b = startAsync("streams-b", twoStreams).join()) {
            String token = Tokens.of(caller);
            EventStream first = EventStream.open(stream(a), token);
            EventStream second = EventStream.open(stream(a), token);
            assertThat(List.of(first.status(), second.status())).containsOnly(200);
            try (EventStream refused = EventStream.open(stream(b), token)) {
                assertThat(refused.status()).isEqualTo(429);
            }

            first.close();
            EventStream onB = await().atMost(Duration.ofSeconds(10))
                    .until(() -> EventStream.open(stream(b), token), opened -> opened.status() == 200);

            // Replica a dies holding the second stream: its place frees when its lease runs out.
            a.kill();
            EventStream another = await().atMost(STREAM_LEASE.multipliedBy(5))
                    .until(() -> EventStream.open(stream(b), token), opened -> opened.status() == 200);
            try (EventStream refused = EventStream.open(stream(b), token)) {
                assertThat(refused.status()).isEqualTo(429);
            }
            onB.close();
            another.close();
        }
    }

    @Test
    void twoReplicasCreatingAtOnceForOneCallerNeverTogetherGoPastItsMeetingsHeld() {
        int held = 10;
        Map<String, String> tenMeetings = settings(Map.of("reminders.limits.meetings-held", Integer.toString(held)));
        try (Replica a = startAsync("held-a", tenMeetings).join();
                Replica b = startAsync("held-b", tenMeetings).join()) {
            // Many at once, so that they contend for the last places on both replicas.
            List<Integer> answers = AtOnce.calls(4 * held, i -> create(i % 2 == 0 ? a : b));

            assertThat(countOf(201, answers)).isEqualTo(held);
            assertThat(countOf(429, answers)).isEqualTo(3L * held);
            assertThat(Database.queryLong(database.name(), "select count(*) from meeting"))
                    .isEqualTo(held);
        }
    }

    @Test
    void whileRedisIsAwayRequestsGoThroughAndMeetingsHeldAreStillLimited() {
        try (RedisServer redis = RedisServer.start();
                Replica replica = Replica.start(
                        "redis-away",
                        settings(Map.of(
                                "reminders.redis.address", redis.address(),
                                "reminders.limits.requests-per-second", "1",
                                "reminders.limits.meetings-held", "2")))) {
            // The rate holds while Redis answers: requests made back to back soon come too soon.
            assertThat(Stream.generate(() -> listMeetings(replica)).limit(10)).contains(429);

            redis.stop();
            assertThat(List.of(listMeetings(replica), listMeetings(replica), listMeetings(replica)))
                    .containsOnly(200);
            assertThat(List.of(create(replica), create(replica), create(replica)))
                    .containsExactly(201, 201, 429);
        }
    }

    private Map<String, String> settings(Map<String, String> limits) {
        Map<String, String> settings = new HashMap<>(limits);
        settings.put("quarkus.datasource.jdbc.url", database.jdbcUrl());
        settings.put("reminders.redis.key-prefix", keys.prefix());
        return settings;
    }

    private static CompletableFuture<Replica> startAsync(String name, Map<String, String> settings) {
        return CompletableFuture.supplyAsync(() -> Replica.start(name, settings));
    }

    private int listMeetings(Replica replica) {
        return listMeetings(replica, caller);
    }

    private static int listMeetings(Replica replica, String caller) {
        return given().baseUri(replica.url(""))
                .header("Authorization", Tokens.bearer(caller))
                .get("/meetings")
                .statusCode();
    }

    /** A replica's first requests are slow (classes load, connections open): made by another caller, they count not. */
    private static void warmUp(Replica replica) {
        Stream.generate(() -> listMeetings(replica, "warm-up-" + UUID.randomUUID()))
                .limit(5)
                .forEach(answer -> assertThat(answer).isEqualTo(200));
    }

    private int create(Replica replica) {
        return given().baseUri(replica.url(""))
                .header("Authorization", Tokens.bearer(caller))
                .contentType(ContentType.JSON)
                .body(meeting().toMap())
                .post("/meetings")
                .statusCode();
    }

    private static URI stream(Replica replica) {
        return URI.create(replica.url("/reminders/stream"));
    }

    private static long countOf(int status, List<Integer> answers) {
        return answers.stream().filter(answer -> answer == status).count();
    }
}
