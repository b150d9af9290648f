package com.meetingreminders.meeting;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@QuarkusTest
class MeetingResourceTest {

    private static final String PROBLEM = "application/problem+json";

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void createsAMeetingWithItsDefaultsAndReminders() {
        Instant startsAt = Moments.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        JsonPath created = given().contentType(ContentType.JSON)
                .body(meeting().title("Planning").startsAt(startsAt).toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .header("ETag", "\"0\"")
                .contentType(ContentType.JSON)
                .extract()
                .jsonPath();
        String id = created.getString("id");
        assertThat(UUID.fromString(id)).isNotNull();
        assertThat(created.getString("title")).isEqualTo("Planning");
        assertThat(created.getString("startsAt")).isEqualTo(startsAt.toString());
        assertThat(created.getString("timeZone")).isEqualTo("UTC");
        assertThat(created.getList("remindBefore")).containsExactly("PT5M");
        assertThat(created.getList("attendees")).isEmpty();
        assertThat(created.getLong("version")).isZero();
        assertThat(created.getString("createdAt")).isNotNull().isEqualTo(created.getString("updatedAt"));
        assertThat(created.getString("reminders[0].sendAt"))
                .isEqualTo(startsAt.minus(Duration.ofMinutes(5)).toString());
        assertThat(created.getString("reminders[0].status")).isEqualTo("SCHEDULED");
    }

    @Test
    void answersACreateWithThePathOfTheNewMeetingWhateverTheHostHeaderSays() {
        ExtractableResponse<Response> created = given().contentType(ContentType.JSON)
                .header("Host", "evil.example:666")
                .body(meeting().toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .extract();
        String location = created.header("Location");
        assertThat(location).isEqualTo("/meetings/" + created.path("id"));
        given().get(location).then().statusCode(200).body("id", equalTo(created.path("id")));
    }

    @Test
    void returnsAStoredMeetingWithItsETag() {
        String id = Api.create(meeting()
                        .title("Retro")
                        .startsAt(Moments.now().plus(Duration.ofDays(1)))
                        .attendees("a@example.com", "b@example.com")
                        .timeZone("Asia/Shanghai")
                        .remindBefore("PT10M", "PT1H"))
                .getString("id");

        given().get("/meetings/" + id)
                .then()
                .statusCode(200)
                .header("ETag", "\"0\"")
                .body("title", equalTo("Retro"))
                .body("timeZone", equalTo("Asia/Shanghai"))
                .body("attendees", equalTo(List.of("a@example.com", "b@example.com")))
                .body("remindBefore", equalTo(List.of("PT10M", "PT1H")))
                .body("reminders", hasSize(2))
                .body("reminders.status", equalTo(List.of("SCHEDULED", "SCHEDULED")));
    }

    @Test
    void answersNotFoundForAMeetingThatDoesNotExist() {
        given().get("/meetings/" + UUID.randomUUID())
                .then()
                .statusCode(404)
                .contentType(PROBLEM)
                .body("status", equalTo(404))
                .body("title", equalTo("Not Found"));
        given().get("/meetings/not-a-uuid").then().statusCode(404).contentType(PROBLEM);
    }

    @Test
    void listsMeetingsInARangeByStartTimeAPageAtATime() {
        Instant base = Moments.now().plus(Duration.ofDays(400)).truncatedTo(ChronoUnit.SECONDS);
        List<String> ids = IntStream.of(3, 1, 2, 0, 4)
                .mapToObj(
                        hour -> Api.create(meeting().title("Range " + hour).startsAt(base.plus(Duration.ofHours(hour))))
                                .getString("id"))
                .toList();
        String from = base.toString();
        String to = base.plus(Duration.ofHours(4)).toString();

        given().queryParam("from", from)
                .queryParam("to", to)
                .queryParam("size", 3)
                .get("/meetings")
                .then()
                .statusCode(200)
                .body("total", equalTo(4))
                .body("page", equalTo(0))
                .body("size", equalTo(3))
                .body("items.title", equalTo(List.of("Range 0", "Range 1", "Range 2")));
        given().queryParam("from", from)
                .queryParam("to", to)
                .queryParam("size", 3)
                .queryParam("page", 1)
                .get("/meetings")
                .then()
                .statusCode(200)
                .body("items.title", equalTo(List.of("Range 3")));
        assertThat(ids).hasSize(5);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "size=0",
                "size=101",
                "size=abc",
                "page=-1",
                "page=x",
                "from=yesterday",
                "to=2030-01-01T00:00:00",
                "from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z"
            })
    void refusesAListQueryThatBreaksARule(String query) {
        String field = query.contains("&") ? "to" : query.substring(0, query.indexOf('='));
        given().get("/meetings?" + query)
                .then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("errors.field", hasItem(field));
    }

    @Test
    void replacesAMeetingAndRaisesItsVersion() {
        String id = Api.create(meeting()).getString("id");
        Instant later = Moments.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);

        given().contentType(ContentType.JSON)
                .header("If-Match", "\"0\"")
                .body(meeting().title("Moved").startsAt(later).toMap())
                .put("/meetings/" + id)
                .then()
                .statusCode(200)
                .header("ETag", "\"1\"")
                .body("title", equalTo("Moved"))
                .body("startsAt", equalTo(later.toString()))
                .body("version", equalTo(1));
        given().get("/meetings/" + id).then().header("ETag", "\"1\"").body("title", equalTo("Moved"));
    }

    @Test
    void deletesOnlyTheVersionIfMatchNames() {
        String id = Api.create(meeting().title("Original")).getString("id");
        Api.replace(id, meeting().title("Second"));

        given().header("If-Match", "\"0\"").delete("/meetings/" + id).then().statusCode(412);
        given().get("/meetings/" + id).then().statusCode(200).body("title", equalTo("Second"));
        given().header("If-Match", "\"1\"").delete("/meetings/" + id).then().statusCode(204);
        given().get("/meetings/" + id).then().statusCode(404);
    }

    @Test
    void readsIfMatchAsOneListOverItsLinesAndRefusesOneThatIsNoList() {
        String id = Api.create(meeting().title("Original")).getString("id");

        for (String notAList : List.of("0", "'0'", "\"0", "*, \"0\"")) {
            given().contentType(ContentType.JSON)
                    .header("If-Match", notAList)
                    .body(meeting().title("Refused").toMap())
                    .put("/meetings/" + id)
                    .then()
                    .statusCode(400)
                    .contentType(PROBLEM)
                    .body("errors.field", equalTo(List.of("If-Match")));
        }
        given().get("/meetings/" + id).then().body("title", equalTo("Original")).body("version", equalTo(0));
        given().contentType(ContentType.JSON)
                .header("If-Match", "\"7\"")
                .header("If-Match", "\"0\"")
                .body(meeting().title("Second").toMap())
                .put("/meetings/" + id)
                .then()
                .statusCode(200)
                .body("version", equalTo(1));
    }

    @Test
    void refusesAReplaceWithAStaleIfMatchAndChangesNothing() {
        String id = Api.create(meeting().title("Original")).getString("id");
        Api.replace(id, meeting().title("Second"));

        given().contentType(ContentType.JSON)
                .header("If-Match", "\"0\"")
                .body(meeting().title("Lost update").toMap())
                .put("/meetings/" + id)
                .then()
                .statusCode(412)
                .contentType(PROBLEM)
                .body("status", equalTo(412));
        given().get("/meetings/" + id).then().body("title", equalTo("Second")).body("version", equalTo(1));
    }

    @Test
    void answersNotFoundWhenReplacingOrDeletingAMissingMeeting() {
        String missing = "/meetings/" + UUID.randomUUID();
        given().contentType(ContentType.JSON)
                .body(meeting().toMap())
                .put(missing)
                .then()
                .statusCode(404)
                .contentType(PROBLEM);
        given().delete(missing).then().statusCode(404).contentType(PROBLEM);
        given().get(missing + "/reminders").then().statusCode(404).contentType(PROBLEM);
    }

    @Test
    void deletesAMeeting() {
        String id = Api.create(meeting()).getString("id");

        given().delete("/meetings/" + id).then().statusCode(204);

        given().get("/meetings/" + id).then().statusCode(404);
        given().delete("/meetings/" + id).then().statusCode(404);
    }

    @Test
    void listsAMeetingsRemindersWithTheirStates() {
        Instant startsAt = Moments.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.SECONDS);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1H", "PT15M"))
                .getString("id");

        given().get("/meetings/" + id + "/reminders")
                .then()
                .statusCode(200)
                .body(
                        "sendAt",
                        equalTo(List.of(
                                startsAt.minus(Duration.ofHours(1)).toString(),
                                startsAt.minus(Duration.ofMinutes(15)).toString())))
                .body("remindBefore", equalTo(List.of("PT1H", "PT15M")))
                .body("status", equalTo(List.of("SCHEDULED", "SCHEDULED")))
                .body("attempts", equalTo(List.of(0, 0)))
                .body("deliveredAt", equalTo(Collections.nCopies(2, null)))
                .body("lastError", equalTo(Collections.nCopies(2, null)));
    }

    @Test
    void acceptsEveryFieldAtTheEdgeOfItsRules() {
        String[] tenDurations =
                IntStream.range(0, 10).mapToObj(i -> "PT" + i + "M").toArray(String[]::new);
        tenDurations[9] = "P30D";
        String[] fiveHundred =
                IntStream.range(0, 500).mapToObj(i -> "a" + i + "@example.com").toArray(String[]::new);
        Api.create(meeting()
                .title("x".repeat(200))
                .startsAt(Moments.now().plus(Duration.ofDays(40)))
                .remindBefore(tenDurations)
                .attendees(fiveHundred)
                .webhookUrl("http://127.0.0.1:9/reminders?team=7")
                .timeZone("America/Argentina/Buenos_Aires"));
        Api.create(meeting().remindBefore().webhookUrl("http://127.0.0.1:9/x"));
    }

    /** One character, two UTF-16 units. */
    private static final String EMOJI = "\uD83D\uDCC5";

    @Test
    void countsATitlesCharactersNotItsUtf16Units() {
        String title = EMOJI.repeat(200);

        String id = Api.create(meeting().title(title)).getString("id");

        given().get("/meetings/" + id).then().statusCode(200).body("title", equalTo(title));
        given().contentType(ContentType.JSON)
                .body(meeting().title(EMOJI.repeat(201)).toMap())
                .post("/meetings")
                .then()
                .statusCode(400)
                .body("errors.find { it.field == 'title' }.message", equalTo("must be at most 200 characters"));
    }

    static Stream<Arguments> brokenRules() {
        Instant future = Moments.now().plus(Duration.ofDays(1));
        return Stream.of(
                Arguments.of("no title", meeting().title(null), "title"),
                Arguments.of("blank title", meeting().title("   "), "title"),
                Arguments.of("title over 200 characters", meeting().title("x".repeat(201)), "title"),
                Arguments.of(
                        "title over 200 characters outside the BMP", meeting().title(EMOJI.repeat(201)), "title"),
                Arguments.of("title not a string", meeting().with("title", 42), "title"),
                Arguments.of("no startsAt", meeting().with("startsAt", null), "startsAt"),
                Arguments.of("startsAt without offset", meeting().with("startsAt", "2030-01-01T09:00:00"), "startsAt"),
                Arguments.of("startsAt not a date", meeting().with("startsAt", "next tuesday"), "startsAt"),
                Arguments.of("startsAt as epoch number", meeting().with("startsAt", 1900000000), "startsAt"),
                Arguments.of(
                        "startsAt in the past", meeting().startsAt(Moments.now().minusSeconds(60)), "startsAt"),
                Arguments.of("unknown time zone", meeting().timeZone("Mars/Olympus_Mons"), "timeZone"),
                Arguments.of("offset instead of zone", meeting().timeZone("+08:00"), "timeZone"),
                Arguments.of(
                        "eleven durations",
                        meeting()
                                .remindBefore(IntStream.range(0, 11)
                                        .mapToObj(i -> "PT" + i + "M")
                                        .toArray(String[]::new)),
                        "remindBefore"),
                Arguments.of("repeated duration", meeting().remindBefore("PT5M", "PT300S"), "remindBefore"),
                Arguments.of("negative duration", meeting().remindBefore("-PT1M"), "remindBefore[0]"),
                Arguments.of("duration over P30D", meeting().remindBefore("PT5M", "P31D"), "remindBefore[1]"),
                Arguments.of("months are not a duration", meeting().remindBefore("P1M"), "remindBefore[0]"),
                Arguments.of("duration as number", meeting().with("remindBefore", List.of(300)), "remindBefore[0]"),
                Arguments.of("remindBefore not an array", meeting().with("remindBefore", "PT5M"), "remindBefore"),
                Arguments.of(
                        "501 attendees",
                        meeting()
                                .attendees(IntStream.range(0, 501)
                                        .mapToObj(i -> "a" + i + "@x.io")
                                        .toArray(String[]::new)),
                        "attendees"),
                Arguments.of(
                        "invalid address", meeting().attendees("ok@example.com", "not an address"), "attendees[1]"),
                Arguments.of("empty address", meeting().attendees(""), "attendees[0]"),
                Arguments.of("webhook not http", meeting().webhookUrl("ftp://example.com/x"), "webhookUrl"),
                Arguments.of("relative webhook", meeting().webhookUrl("/hooks/x"), "webhookUrl"),
                Arguments.of("unknown field", meeting().with("room", "B12"), "room"),
                Arguments.of(
                        "start in the future but after a stray field",
                        meeting().startsAt(future).with("id", "x"),
                        "id"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenRules")
    void refusesABodyThatBreaksARuleAndStoresNothing(String rule, MeetingBody body, String field) {
        long before = Database.countMeetings();

        ValidatableResponse answer = given().contentType(ContentType.JSON)
                .body(body.toMap())
                .post("/meetings")
                .then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("status", equalTo(400))
                .body("errors.field", hasItem(field))
                .body("errors.message", not(hasItem(nullValue())));
        assertNoInternals(answer);
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenRules")
    void refusesAReplaceThatBreaksARuleAndChangesNothing(String rule, MeetingBody body, String field) {
        if (rule.equals("startsAt in the past")) {
            return; // allowed on PUT: the meeting's reminders are then SKIPPED
        }
        String id = Api.create(meeting().title("Unchanged")).getString("id");

        given().contentType(ContentType.JSON)
                .body(body.toMap())
                .put("/meetings/" + id)
                .then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("errors.field", hasItem(field));
        given().get("/meetings/" + id)
                .then()
                .body("title", equalTo("Unchanged"))
                .body("version", equalTo(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"title\":", "[1]", "\"text\"", "{\"title\":\"a\"} {}", "null"})
    void refusesABodyThatIsNotOneJsonObject(String body) {
        long before = Database.countMeetings();
        assertNoInternals(given().contentType(ContentType.JSON)
                .body(body)
                .post("/meetings")
                .then()
                .statusCode(400)
                .contentType(PROBLEM));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void refusesABodyOver64KiB() {
        long before = Database.countMeetings();
        String huge = "{\"title\":\"" + "x".repeat(70 * 1024) + "\"}";
        given().contentType(ContentType.JSON)
                .body(huge)
                .post("/meetings")
                .then()
                .statusCode(413)
                .contentType(PROBLEM)
                .body("status", equalTo(413));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/xml", "text/plain", "application/x-www-form-urlencoded"})
    void refusesOtherMediaTypes(String mediaType) {
        long before = Database.countMeetings();
        given().contentType(mediaType)
                .body("title=x")
                .post("/meetings")
                .then()
                .statusCode(415)
                .contentType(PROBLEM)
                .body("status", equalTo(415));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void refusesABodyWithoutAContentType() throws Exception {
        long before = Database.countMeetings();
        // RestAssured always names a content type; the JDK client sends none unless told.
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/meetings"))
                .header("Authorization", Tokens.bearer(Tokens.DEFAULT_CALLER))
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"x\",\"startsAt\":\"2030-01-01T00:00:00Z\"}"))
                .build();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(415);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue(PROBLEM);
        assertThat(answer.body())
                .isEqualTo("{\"type\":\"about:blank\",\"title\":\"Unsupported Media Type\",\"status\":415,"
                        + "\"detail\":\"This resource takes no body of that media type; its OpenAPI description"
                        + " names those it takes.\"}");
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void createsABatchOfMeetingsInTheOrderGiven() {
        Instant startsAt = Moments.now().plus(Duration.ofDays(5)).truncatedTo(ChronoUnit.SECONDS);
        List<Object> batch = IntStream.range(0, 3)
                .mapToObj(i -> (Object)
                        meeting().title("Batch " + i).startsAt(startsAt).toMap())
                .toList();

        JsonPath created = createBatch(batch);

        assertThat(created.getList("items.title")).containsExactly("Batch 0", "Batch 1", "Batch 2");
        assertThat(created.getList("items.reminders[0].status")).containsOnly("SCHEDULED");
        given().get("/meetings/" + created.getString("items[2].id")).then().statusCode(200);
    }

    @Test
    void storesEveryMeetingAndReminderOfAFullBatch() {
        String tag = "Full batch " + UUID.randomUUID();
        Instant first = Moments.now().plus(Duration.ofDays(5)).truncatedTo(ChronoUnit.SECONDS);
        List<Object> batch = IntStream.range(0, 1_000)
                .mapToObj(i -> (Object) meeting()
                        .title(tag + " " + i)
                        .startsAt(first.plus(Duration.ofMinutes(i)))
                        .remindBefore("PT5M", "PT1H")
                        .toMap())
                .toList();

        JsonPath created = createBatch(batch);

        assertThat(created.getList("items")).hasSize(1_000);
        String last = created.getString("items[999].id");
        assertThat(Database.queryLong(
                        Database.TEST_DATABASE,
                        "select count(*) from reminder r join meeting m on m.id = r.meeting_id"
                                + " where m.title like '" + tag + " %' and r.status = 'SCHEDULED'"))
                .isEqualTo(2_000);
        given().get("/meetings/" + last)
                .then()
                .statusCode(200)
                .body("title", equalTo(tag + " 999"))
                .body(
                        "reminders.sendAt",
                        containsInAnyOrder(
                                first.plus(Duration.ofMinutes(999 - 5)).toString(),
                                first.plus(Duration.ofMinutes(999 - 60)).toString()));
    }

    private static JsonPath createBatch(List<Object> batch) {
        return given().contentType(ContentType.JSON)
                .body(batch)
                .post("/meetings/batch")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    @Test
    void saysABatchMustBeAnArrayAndAMeetingOneObject() {
        given().contentType(ContentType.JSON)
                .body(meeting().toMap())
                .post("/meetings/batch")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("body"))
                .body("errors[0].message", equalTo("must be a JSON array"));
        given().contentType(ContentType.JSON)
                .body(List.of(meeting().toMap()))
                .post("/meetings")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("body"))
                .body("errors[0].message", equalTo("must be one JSON object"));
    }

    @Test
    void refusesABatchWithOneBrokenMeetingAndStoresNoneOfIt() {
        long before = Database.countMeetings();
        List<Object> batch = List.of(
                meeting().toMap(),
                meeting().title(" ").toMap(),
                meeting().remindBefore("P1M").toMap());

        given().contentType(ContentType.JSON)
                .body(batch)
                .post("/meetings/batch")
                .then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("errors.field", hasItem("[2].remindBefore[0]"));
        given().contentType(ContentType.JSON)
                .body(List.of(meeting().toMap(), meeting().title(" ").toMap()))
                .post("/meetings/batch")
                .then()
                .statusCode(400)
                .body("errors.field", equalTo(List.of("[1].title")));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void namesTheMeetingOfABatchWhoseSeriesNeverOccurs() {
        long before = Database.countMeetings();
        Map<String, Object> never = meeting()
                .with("recurrence", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")
                .toMap();

        for (List<Object> batch : List.<List<Object>>of(List.of(meeting().toMap(), never), List.of(never))) {
            given().contentType(ContentType.JSON)
                    .body(batch)
                    .post("/meetings/batch")
                    .then()
                    .statusCode(400)
                    .contentType(PROBLEM)
                    .body("errors.field", equalTo(List.of("[" + (batch.size() - 1) + "].recurrence")));
        }
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1001})
    void refusesABatchThatIsEmptyOrTooLong(int size) {
        long before = Database.countMeetings();
        List<Object> batch = IntStream.range(0, size)
                .mapToObj(i -> (Object) meeting().toMap())
                .toList();
        given().contentType(ContentType.JSON)
                .body(batch)
                .post("/meetings/batch")
                .then()
                .statusCode(400)
                .contentType(PROBLEM)
                .body("errors.field", equalTo(List.of("body")));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void takesABatchBodyLargerThanASingleMeetingMay() {
        List<Object> batch = IntStream.range(0, 400)
                .mapToObj(i -> (Object) meeting()
                        .title("x".repeat(190))
                        .attendees("a@example.com")
                        .toMap())
                .toList();
        given().contentType(ContentType.JSON)
                .body(batch)
                .post("/meetings/batch")
                .then()
                .statusCode(201)
                .body("items", hasSize(400));
    }

    @Test
    void refusesABatchOver8MiB() {
        String huge = "[{\"title\":\"" + "x".repeat(9 * 1024 * 1024) + "\"}]";
        given().contentType(ContentType.JSON)
                .body(huge)
                .post("/meetings/batch")
                .then()
                .statusCode(413)
                .contentType(PROBLEM);
    }

    @Test
    void refusesABodyOfUnknownLengthOver64KiB() throws Exception {
        long before = Database.countMeetings();
        byte[] body = ("{\"title\":\"" + "x".repeat(70 * 1024) + "\"}").getBytes();
        // A publisher of unknown length: the JDK client sends the body chunked, without a Content-Length.
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/meetings"))
                .header("Authorization", Tokens.bearer(Tokens.DEFAULT_CALLER))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofByteArray(body)))
                .build();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(413);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue(PROBLEM);
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void describesItsApiWithOpenApiAndSwaggerUi() {
        given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .body("paths", org.hamcrest.Matchers.hasKey("/meetings/{id}"))
                .body("paths", org.hamcrest.Matchers.hasKey("/reminders/stream"))
                .body("components.securitySchemes.bearer.scheme", equalTo("bearer"))
                .body("paths.'/meetings'.post.security[0]", org.hamcrest.Matchers.hasKey("bearer"));
        given().get("/q/swagger-ui/").then().statusCode(200).body(containsString("swagger"));
    }

    @Test
    void reportsHealth() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    private static void assertNoInternals(ValidatableResponse answer) {
        String body = answer.extract().asString();
        assertThat(body).doesNotContain("Exception", "at com.", "at org.", "select ", "com.fasterxml", "EVALSHA");
        answer.body("type", not(nullValue())).body("detail", not(nullValue()));
        answer.header("Location", nullValue());
        assertThat(body).doesNotContain("\"stack");
        answer.body("title", not(endsWith("Exception")));
    }
}
