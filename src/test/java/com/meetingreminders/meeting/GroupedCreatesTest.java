package com.meetingreminders.meeting;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Database;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One caller's creates that wait while an earlier one holds the caller's counts go in together, in one transaction,
 * and each is answered as it would have been alone. The test holds the caller's counts locked from a connection of its
 * own, so that the creates sent meanwhile are all waiting when it lets go.
 */
@QuarkusTest
class GroupedCreatesTest {

    private static final int WAITING = 7;

    @Inject
    GroupedCreates creates;

    private final String caller = "grouped-" + UUID.randomUUID();
    private final String owner = Tokens.ownerOf(caller);
    private final ExecutorService clients = Executors.newFixedThreadPool(WAITING + 1);

    @AfterEach
    void stopClients() {
        clients.shutdownNow();
    }

    @Test
    void createsThatWaitedForTheCallersTurnCommitTogetherAndEachGetsItsOwnMeeting() throws SQLException {
        List<MeetingBody> bodies = IntStream.range(0, WAITING)
                .mapToObj(i -> meeting().title("grouped " + i))
                .toList();

        List<Response> answers = sendWhileCountsAreLocked(bodies);

        List<String> ids = new ArrayList<>();
        for (int i = 0; i < WAITING; i++) {
            Response answer = answers.get(i);
            // Each reminder joins the trace of the request that asked for its meeting, not of the group's.
            String id = answer.path("id");
            assertThat(Database.queryString(
                            Database.TEST_DATABASE,
                            "select trace_parent from reminder where meeting_id = '" + id + "'"))
                    .startsWith("00-" + traceId(i) + "-");
            assertThat(answer.statusCode()).isEqualTo(201);
            assertThat(answer.header("Location")).endsWith("/meetings/" + id);
            assertThat(answer.<String>path("title")).isEqualTo("grouped " + i);
            assertThat(given().header("Authorization", "Bearer " + Tokens.of(caller))
                            .get("/meetings/" + id)
                            .then()
                            .statusCode(200)
                            .extract()
                            .<String>path("title"))
                    .isEqualTo("grouped " + i);
            ids.add(id);
        }
        assertThat(ids).doesNotHaveDuplicates();
        assertThat(transactionsThatWrote(ids)).isEqualTo(1);
    }

    @Test
    void aCreateRefusedInAGroupFailsAloneAndTheOthersAreStored() throws SQLException {
        Instant tomorrow = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.HOURS);
        List<MeetingBody> bodies = new ArrayList<>(IntStream.range(0, WAITING)
                .mapToObj(i -> meeting().title("grouped " + i))
                .toList());
        // Its own occurrences would share reminders: 409, whatever else is in its group.
        bodies.set(
                3,
                meeting()
                        .title("colliding")
                        .startsAt(tomorrow)
                        .remindBefore("PT0S", "PT1H")
                        .with("recurrence", "FREQ=HOURLY;COUNT=5"));

        List<Response> answers = sendWhileCountsAreLocked(bodies);

        assertThat(answers.get(3).statusCode()).isEqualTo(409);
        assertThat(answers.get(3).<String>path("type")).endsWith("/problems/reminder-collision");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < WAITING; i++) {
            if (i != 3) {
                assertThat(answers.get(i).statusCode()).isEqualTo(201);
                assertThat(answers.get(i).<String>path("title")).isEqualTo("grouped " + i);
                ids.add(answers.get(i).path("id"));
            }
        }
        // The first create, before the group, and the six stored; "colliding" is not.
        assertThat(Database.queryLong(
                        Database.TEST_DATABASE,
                        "select count(*) from meeting where owner = '" + owner + "' and title <> 'first'"))
                .isEqualTo(WAITING - 1);
        assertThat(transactionsThatWrote(ids)).isEqualTo(WAITING - 1);
    }

    /**
     * Creates one meeting, so that the caller has counts; locks them; sends one create, which takes the caller's turn
     * and waits for the lock; then sends the bodies, which wait for the turn. Lets go once all of them wait.
     */
    private List<Response> sendWhileCountsAreLocked(List<MeetingBody> bodies) throws SQLException {
        assertThat(post(meeting().title("first")).statusCode()).isEqualTo(201);
        CompletableFuture<Response> first;
        List<CompletableFuture<Response>> waiting;
        try (Connection counts = Database.connect(Database.TEST_DATABASE)) {
            counts.setAutoCommit(false);
            try (PreparedStatement lock =
                    counts.prepareStatement("select used from caller_usage where owner = ? for update")) {
                lock.setString(1, owner);
                lock.executeQuery().close();
            }
            first = CompletableFuture.supplyAsync(() -> post(meeting().title("first")), clients);
            await().atMost(Duration.ofSeconds(30)).until(() -> waitersOnCallerUsage() == 1);
            waiting = IntStream.range(0, bodies.size())
                    .mapToObj(i -> CompletableFuture.supplyAsync(
                            () -> post(bodies.get(i), "00-" + traceId(i) + "-00f067aa0ba902b7-01"), clients))
                    .toList();
            await().atMost(Duration.ofSeconds(30)).until(() -> creates.waiting(owner) == bodies.size());
            counts.rollback();
        }
        assertThat(first.join().statusCode()).isEqualTo(201);
        return waiting.stream().map(CompletableFuture::join).toList();
    }

    private Response post(MeetingBody body) {
        return post(body, "00-" + "f".repeat(32) + "-00f067aa0ba902b7-01");
    }

    private Response post(MeetingBody body, String traceParent) {
        return given().header("Authorization", "Bearer " + Tokens.of(caller))
                .header("traceparent", traceParent)
                .contentType(ContentType.JSON)
                .body(body.toMap())
                .post("/meetings");
    }

    /** The trace id the i-th waiting request sends. */
    private static String traceId(int i) {
        return "4bf92f3577b34da6a3ce929d0e0e47" + String.format("%02x", i);
    }

    private static long waitersOnCallerUsage() {
        return Database.queryLong(
                Database.TEST_DATABASE,
                "select count(*) from pg_stat_activity where datname = current_database()"
                        + " and wait_event_type = 'Lock' and query like 'insert into caller_usage%'");
    }

    /** The transactions that wrote these meetings' rows: a row's xmin is the id of the one that inserted it. */
    private static long transactionsThatWrote(List<String> ids) {
        return Database.queryLong(
                Database.TEST_DATABASE,
                "select count(distinct xmin::text) from meeting where id in ('" + String.join("','", ids) + "')");
    }
}
