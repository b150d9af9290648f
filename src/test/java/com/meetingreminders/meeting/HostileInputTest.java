package com.meetingreminders.meeting;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.JsonText;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Problems;
import com.meetingreminders.support.RawHttp;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every class of hostile input in {@link HostileInputs}: a clean 4xx naming the field, and nothing stored. */
@QuarkusTest
class HostileInputTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("com.meetingreminders.meeting.HostileInputs#all")
    void refusesHostileInputWithAProblemNamingTheFieldAndStoresNothing(
            String name, RawHttp.Request request, int status, String field) {
        String id = request.pathAndQuery().contains("{id}")
                ? Api.create(meeting().title("Unchanged")).getString("id")
                : null;
        Map<String, Object> meetingBefore = id == null ? null : stored(id);
        long before = Database.countMeetings();

        RawHttp.Answer answer = RawHttp.send(
                baseUrl(),
                new RawHttp.Request(
                        request.method(),
                        request.pathAndQuery().replace("{id}", String.valueOf(id)),
                        request.contentType(),
                        request.body()));

        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.contentType()).isEqualTo(Problems.MEDIA_TYPE);
        Problems.assertNoInternals(answer.body());
        JsonPath problem = JsonPath.from(answer.body());
        assertThat(problem.getInt("status")).isEqualTo(status);
        if (field != null) {
            assertThat(problem.getList("errors.field", String.class))
                    .as(answer.body())
                    .contains(field);
        }
        assertThat(Database.countMeetings()).isEqualTo(before);
        if (id != null) {
            assertThat(stored(id)).isEqualTo(meetingBefore);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not-a-uuid",
                "%00",
                "00000000-0000-0000-0000-0000000000000",
                "%F0%9F%98%80",
                "..%2F..%2Fetc",
                "7d0c0000-0000-0000-0000-00000000000g"
            })
    void answersNotFoundForAnIdThatIsNoUuidOnEveryPath(String id) {
        for (RawHttp.Request request : List.of(
                new RawHttp.Request("GET", "/meetings/" + id, null, null),
                new RawHttp.Request("DELETE", "/meetings/" + id, null, null),
                new RawHttp.Request("GET", "/meetings/" + id + "/reminders", null, null),
                new RawHttp.Request(
                        "PUT",
                        "/meetings/" + id,
                        HostileInputs.JSON,
                        JsonText.meeting().bytes()))) {
            RawHttp.Answer answer = RawHttp.send(baseUrl(), request);
            assertThat(answer.status())
                    .as(request.method() + " " + answer.body())
                    .isEqualTo(404);
            assertThat(answer.contentType()).isEqualTo(Problems.MEDIA_TYPE);
            Problems.assertNoInternals(answer.body());
        }
    }

    @Test
    void keepsAStartToTheMillisecondAndDerivesEverySendTimeFromIt() {
        Instant whole = Moments.now().plus(Duration.ofDays(2));
        JsonPath created = Api.create(
                meeting().with("startsAt", whole.plusNanos(999_999).toString()).remindBefore("PT0.001S", "PT1M"));

        assertThat(created.getString("startsAt")).isEqualTo(whole.toString());
        assertThat(created.getList("reminders.sendAt", String.class))
                .containsExactly(
                        whole.minus(Duration.ofMinutes(1)).toString(),
                        whole.minusMillis(1).toString());
    }

    @Test
    void refusesABodySentWithTwoContentTypesAndStoresNothing() throws Exception {
        long before = Database.countMeetings();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + "/meetings"))
                .header("Authorization", Tokens.bearer(Tokens.DEFAULT_CALLER))
                .header("Content-Type", "application/json")
                .header("Content-Type", "text/calendar")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JsonText.meeting().bytes()))
                .build();

        HttpResponse<String> answer = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(415);
        assertThat(answer.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith(Problems.MEDIA_TYPE));
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void acceptsAUtf8ByteOrderMarkBeforeTheBody() {
        byte[] json = JsonText.meeting().text("title", "With BOM").bytes();
        byte[] body = new byte[json.length + 3];
        body[0] = (byte) 0xEF;
        body[1] = (byte) 0xBB;
        body[2] = (byte) 0xBF;
        System.arraycopy(json, 0, body, 3, json.length);

        RawHttp.Answer answer =
                RawHttp.send(baseUrl(), new RawHttp.Request("POST", "/meetings", HostileInputs.JSON, body));

        assertThat(answer.status()).as(answer.body()).isEqualTo(201);
        assertThat(JsonPath.from(answer.body()).getString("title")).isEqualTo("With BOM");
    }

    @Test
    void namesTheFieldWhoseBytesAreNoUtf8() {
        byte[] latin1 = JsonText.meeting().text("title", "caf\u00e9").json().getBytes(StandardCharsets.ISO_8859_1);

        RawHttp.Answer answer =
                RawHttp.send(baseUrl(), new RawHttp.Request("POST", "/meetings", HostileInputs.JSON, latin1));

        assertThat(answer.status()).isEqualTo(400);
        JsonPath problem = JsonPath.from(answer.body());
        assertThat(problem.getString("detail")).isEqualTo("The body is not well-formed JSON.");
        assertThat(problem.getString("errors[0].field")).isEqualTo("title");
        assertThat(problem.getString("errors[0].message")).isEqualTo("is not valid UTF-8");
    }

    @Test
    void namesTheBatchElementWhoseKeyIsNoUtf8OrWhoseNumberIsTooLong() {
        String meeting = JsonText.meeting().json();
        byte[] badKey =
                ("[" + meeting.replace("{", "{\"caf\u00e9\":\"x\",") + "]").getBytes(StandardCharsets.ISO_8859_1);
        byte[] longNumber = ("[" + meeting.replace("{", "{\"x\":1" + "0".repeat(1_200) + ",") + "]")
                .getBytes(StandardCharsets.UTF_8);

        RawHttp.Answer key =
                RawHttp.send(baseUrl(), new RawHttp.Request("POST", "/meetings/batch", HostileInputs.JSON, badKey));
        RawHttp.Answer number =
                RawHttp.send(baseUrl(), new RawHttp.Request("POST", "/meetings/batch", HostileInputs.JSON, longNumber));

        assertThat(key.status()).isEqualTo(400);
        // The parser stands at the key before the broken one; the element is as near as it can name.
        assertThat(JsonPath.from(key.body()).getString("errors[0].field")).isEqualTo("[0]");
        assertThat(number.status()).isEqualTo(400);
        assertThat(JsonPath.from(number.body()).getString("errors[0].message"))
                .isEqualTo("is nested too deeply, or holds a number or string too long to read");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/meetings", "/meetings/batch"})
    void refusesABodyAnnouncedLargerThanAllowedBeforeReadingIt(String path) {
        long before = Database.countMeetings();
        RawHttp.Answer answer = RawHttp.postDeclaring(
                "127.0.0.1",
                RestAssured.port,
                path,
                1_000_000_000_000L,
                JsonText.meeting().bytes());

        assertThat(answer.status()).isEqualTo(413);
        assertThat(answer.contentType()).isEqualTo(Problems.MEDIA_TYPE);
        assertThat(JsonPath.from(answer.body()).getString("detail"))
                .matches(
                        path.equals("/meetings")
                                ? "The body is larger than 64 KiB\\."
                                : "The body is larger than \\d+ bytes\\.");
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    private static Map<String, Object> stored(String id) {
        return RestAssured.given()
                .get("/meetings/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("$");
    }

    private static String baseUrl() {
        return RestAssured.baseURI + ":" + RestAssured.port;
    }
}
