package com.meetingreminders.idempotency;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.nullValue;

import com.meetingreminders.support.AtOnce;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * POST /meetings and /meetings/batch with an Idempotency-Key. Each test calls as a caller of its own, so that its
 * keys and meetings are its own; the test profile caps keys at five per caller.
 */
@QuarkusTest
class IdempotentCreateTest {

    private static final String PROBLEM = "application/problem+json";
    private static final int CAP = 5;

    private final String caller = "idempotent-" + UUID.randomUUID();
    private final String key = "key-" + UUID.randomUUID();

    @Inject
    ExpiredKeyCleanup cleanup;

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void replaysTheFirstAnswerByteForByteAndCreatesNothingMore() {
        MeetingBody body = meeting().title("Retried").remindBefore("PT10M");
        Response first = create(key, body);
        Response repeat = create(key, body);

        first.then().statusCode(201).header(StoredAnswer.REPLAYED, nullValue());
        repeat.then().statusCode(201).header(StoredAnswer.REPLAYED, "true");
        assertThat(repeat.asByteArray()).isEqualTo(first.asByteArray());
        for (String header : List.of("Location", "ETag", "Content-Type")) {
            assertThat(repeat.header(header)).as(header).isNotNull().isEqualTo(first.header(header));
        }
        assertThat(first.header("Location")).endsWith("/meetings/" + first.path("id"));
        assertThat(first.header("ETag")).isEqualTo("\"0\"");
        assertThat(meetingsOfCaller()).isEqualTo(1);
    }

    @Test
    void takesTheSameBodyWithOtherSpacingAndFieldOrderAsARepeat() {
        String startsAt = meeting().toMap().get("startsAt").toString();
        send(key, "{\"title\":\"Spaced\",\"startsAt\":\"" + startsAt + "\",\"remindBefore\":[\"PT5M\"]}", "/meetings")
                .then()
                .statusCode(201);
        send(
                        key,
                        "{ \"remindBefore\" : [ \"PT5M\" ],\n \"startsAt\": \"" + startsAt
                                + "\", \"title\": \"Spaced\" }",
                        "/meetings")
                .then()
                .statusCode(201)
                .header(StoredAnswer.REPLAYED, "true");
        assertThat(meetingsOfCaller()).isEqualTo(1);
    }

    @Test
    void refusesTheSameKeyWithAnotherBodyAs422AndCreatesNothing() {
        MeetingBody body = meeting().title("First");
        create(key, body).then().statusCode(201);

        create(key, body.title("Second"))
                .then()
                .statusCode(422)
                .contentType(PROBLEM)
                .body("type", equalTo("/problems/idempotency-key-reused"))
                .body("status", equalTo(422));
        assertThat(meetingsOfCaller()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "tab\tinside", "caf\u00e9", "x256", "twice"})
    void refusesAKeyThatIsEmptyTooLongNotPrintableAsciiOrSentTwiceNamingTheHeader(String badKey) {
        RequestSpecification request = as(caller);
        switch (badKey) {
            case "x256" -> request.header(IdempotentCreates.HEADER, "x".repeat(256));
            case "twice" -> request.header(IdempotentCreates.HEADER, "one").header(IdempotentCreates.HEADER, "two");
            default -> request.header(IdempotentCreates.HEADER, badKey);
        }
        request.body(meeting().toMap())
                .post("/meetings")
                .then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("errors.field", equalTo(List.of("Idempotency-Key")));
        assertThat(meetingsOfCaller()).isZero();
    }

    @Test
    void takesAKeyOf255PrintableAsciiCharacters() {
        String longest = ("~ !" + UUID.randomUUID()).repeat(10).substring(0, 255);
        MeetingBody body = meeting();
        create(longest, body).then().statusCode(201);
        create(longest, body).then().statusCode(201).header(StoredAnswer.REPLAYED, "true");
    }

    @Test
    void keepsTheSameKeyOfTwoCallersApart() {
        String other = caller + "-other";
        MeetingBody body = meeting().title("Mine");
        String mine = create(key, body).then().statusCode(201).extract().path("id");
        String theirs = as(other)
                .header(IdempotentCreates.HEADER, key)
                .body(meeting().title("Theirs").toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .header(StoredAnswer.REPLAYED, nullValue())
                .extract()
                .path("id");

        assertThat(theirs).isNotEqualTo(mine);
        create(key, body).then().header(StoredAnswer.REPLAYED, "true").body("id", equalTo(mine));
    }

    @Test
    void refusesOneKeyTooManyWithRetryAfterButStillReplaysAndTakesCreatesWithoutAKey() {
        List<String> keys = IntStream.range(0, CAP).mapToObj(i -> key + "-" + i).toList();
        MeetingBody body = meeting();
        keys.forEach(each -> create(each, body).then().statusCode(201));

        String retryAfter = create(key + "-one-too-many", meeting())
                .then()
                .statusCode(429)
                .contentType(PROBLEM)
                .body("type", equalTo("/problems/limit-exceeded"))
                .extract()
                .header("Retry-After");
        assertThat(Long.parseLong(retryAfter)).isBetween(1L, 24 * 3600L);
        create(keys.get(0), body).then().statusCode(201).header(StoredAnswer.REPLAYED, "true");
        create(null, meeting()).then().statusCode(201);
        assertThat(meetingsOfCaller()).isEqualTo(CAP + 1);
    }

    @Test
    void keepsTheCapWhenNewKeysArriveTogether() throws Exception {
        String owner = ownerAsStored();
        int sent = CAP + 3;
        CompletableFuture<List<Integer>> statuses;
        try (Connection holder = Database.connect(Database.TEST_DATABASE)) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("select pg_advisory_xact_lock(?)")) {
                lock.setLong(1, IdempotencyStore.keysLockId(owner));
                lock.execute();
            }
            statuses = CompletableFuture.supplyAsync(() ->
                    AtOnce.calls(sent, i -> create(key + "-" + i, meeting()).statusCode()));
            // Every create is past the first count once each waits for a lock: the first for the owner's keys, the
            // others for the owner's usage, which the first holds.
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> Database.queryLong(
                                    Database.TEST_DATABASE,
                                    "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"
                                            + " and (query like '%pg_advisory_xact_lock%' or query like '%caller_usage%')")
                            >= sent);
            holder.rollback();
        }

        assertThat(statuses.get(60, TimeUnit.SECONDS))
                .containsOnly(201, 429)
                .filteredOn(status -> status == 201)
                .hasSize(CAP);
        assertThat(Database.queryLong(
                        Database.TEST_DATABASE, "select count(*) from idempotency_key where owner = '" + owner + "'"))
                .isEqualTo(CAP);
        // The one made to learn the owner's name, and one for each key within the cap.
        assertThat(meetingsOfCaller()).isEqualTo(1 + CAP);
    }

    @Test
    void replaysABatchAsAWholeAndRefusesItsKeyOnTheSingleCreate() {
        List<Object> batch =
                List.of(meeting().title("One").toMap(), meeting().title("Two").toMap());
        Response first =
                as(caller).header(IdempotentCreates.HEADER, key).body(batch).post("/meetings/batch");
        Response repeat =
                as(caller).header(IdempotentCreates.HEADER, key).body(batch).post("/meetings/batch");

        first.then().statusCode(201).header(StoredAnswer.REPLAYED, nullValue());
        repeat.then().statusCode(201).header(StoredAnswer.REPLAYED, "true");
        assertThat(repeat.asByteArray()).isEqualTo(first.asByteArray());
        assertThat(meetingsOfCaller()).isEqualTo(2);
        create(key, meeting().title("One")).then().statusCode(422);
    }

    @Test
    void answersARepeatWhileTheFirstStillHoldsTheKey409AndCreatesNothing() throws Exception {
        String owner = ownerAsStored();
        try (Connection first = Database.connect(Database.TEST_DATABASE)) {
            first.setAutoCommit(false);
            try (PreparedStatement lock = first.prepareStatement("select pg_advisory_xact_lock(?)")) {
                lock.setLong(1, IdempotencyStore.lockId(owner, key));
                lock.execute();
            }

            create(key, meeting())
                    .then()
                    .statusCode(409)
                    .contentType(PROBLEM)
                    .header("Retry-After", "1")
                    .body("type", equalTo("/problems/idempotency-key-in-use"));
            first.rollback();
        }
        create(key, meeting()).then().statusCode(201).header(StoredAnswer.REPLAYED, nullValue());
        assertThat(meetingsOfCaller()).isEqualTo(2);
    }

    @Test
    void keepsNoAnswerToARefusedCreateSoACorrectedRetryCreates() {
        create(key, meeting().title(" ")).then().statusCode(400);

        create(key, meeting().title("Corrected"))
                .then()
                .statusCode(201)
                .header(StoredAnswer.REPLAYED, nullValue())
                .body("title", equalTo("Corrected"));
    }

    @Test
    void forgetsAKeyAfter24HoursAndTheCleanupDeletesItsAnswer() {
        create(key, meeting().title("Yesterday")).then().statusCode(201);
        backdateKey(25);

        create(key, meeting().title("Today"))
                .then()
                .statusCode(201)
                .header(StoredAnswer.REPLAYED, nullValue())
                .body("title", equalTo("Today"));
        assertThat(storedAnswers()).isEqualTo(1);
        backdateKey(23);
        cleanup.deleteExpired();
        assertThat(storedAnswers()).isEqualTo(1);
        backdateKey(2);
        cleanup.deleteExpired();
        assertThat(storedAnswers()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/meetings", "/meetings/batch"})
    void documentsTheHeaderAndItsAnswersInOpenApi(String path) {
        String post = "paths['" + path + "'].post";
        given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .body(post + ".parameters.find { it.name == 'Idempotency-Key' }.in", equalTo("header"))
                .body(post + ".responses.keySet()", hasItems("201", "409", "422"))
                .body(post + ".responses['201'].headers.keySet()", hasItem(StoredAnswer.REPLAYED));
    }

    private Response create(String idempotencyKey, MeetingBody body) {
        RequestSpecification request = as(caller);
        if (idempotencyKey != null) {
            request.header(IdempotentCreates.HEADER, idempotencyKey);
        }
        return request.body(body.toMap()).post("/meetings");
    }

    private Response send(String idempotencyKey, String json, String path) {
        return as(caller)
                .header(IdempotentCreates.HEADER, idempotencyKey)
                .body(json)
                .post(path);
    }

    private static RequestSpecification as(String who) {
        return given().header("Authorization", Tokens.bearer(who)).contentType(ContentType.JSON);
    }

    private long meetingsOfCaller() {
        return as(caller).get("/meetings").then().statusCode(200).extract().<Integer>path("total");
    }

    /** The owner of this test's meetings as the service stores it, whatever it makes of the token. */
    private String ownerAsStored() {
        String id = create(null, meeting()).then().statusCode(201).extract().path("id");
        return Database.queryString(Database.TEST_DATABASE, "select owner from meeting where id = '" + id + "'");
    }

    private void backdateKey(int hours) {
        Database.execute(
                Database.TEST_DATABASE,
                "update idempotency_key set created_at = created_at - interval '" + hours + " hours' where key = '"
                        + key + "'");
    }

    private long storedAnswers() {
        return Database.queryLong(
                Database.TEST_DATABASE, "select count(*) from idempotency_key where key = '" + key + "'");
    }
}
