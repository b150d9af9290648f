package com.meetingreminders.admin;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

import com.meetingreminders.config.ReplicaName;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.RedisClient;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The operators' API: retry of a FAILED reminder, the reminders list, pause and resume, the replicas' health. */
@QuarkusTest
class OperatorsTest {

    private static final String OPERATOR = "Bearer " + Tokens.operator("olga");

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @AfterEach
    void deliveryRuns() {
        Api.resumeDelivery();
    }

    @Test
    void retrySendsAFailedReminderOnceMoreWithItsDeliveryId() {
        String path = "/fails-then-works";
        receiver.answerInTurn(path, 500, 500, 500);
        Instant startsAt = Moments.now().plusSeconds(30);
        String id = Api.create(
                        meeting().startsAt(startsAt).remindBefore("PT29S").webhookUrl(receiver.url(path)))
                .getString("id");
        String sendAt = Api.onlyReminder(id).get("sendAt").toString();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));

        given().header("Authorization", Tokens.bearer("bob"))
                .post("/meetings/" + id + "/reminders/" + sendAt + "/retry")
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
        given().post("/meetings/" + id + "/reminders/" + sendAt + "/retry")
                .then()
                .statusCode(202)
                .body("status", equalTo("SCHEDULED"))
                .body("attempts", equalTo(0));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));
        assertThat(Api.onlyReminder(id)).containsEntry("attempts", 1);
        assertThat(receiver.on(path))
                .hasSize(4)
                .extracting(WebhookReceiver.Received::deliveryId)
                .containsOnly(Api.deliveryId(id, Instant.parse(sendAt)));
        given().post("/meetings/" + id + "/reminders/" + sendAt + "/retry")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("DELIVERED"));
    }

    @Test
    void anOperatorMayRetryAnyCallersReminder() {
        String path = "/down";
        receiver.alwaysAnswer(path, 503);
        String id = Api.create(meeting()
                        .startsAt(Moments.now().plusSeconds(30))
                        .remindBefore("PT29S")
                        .webhookUrl(receiver.url(path)))
                .getString("id");
        String sendAt = Api.onlyReminder(id).get("sendAt").toString();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "FAILED".equals(Api.onlyReminder(id).get("status")));
        receiver.alwaysAnswer(path, 204);

        given().header("Authorization", OPERATOR)
                .post("/meetings/" + id + "/reminders/" + sendAt + "/retry")
                .then()
                .statusCode(202);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));
    }

    @Test
    void retryOfNoSuchReminderIsNotFoundAndChangesNothing() {
        String id =
                Api.create(meeting().startsAt(Moments.now().plusSeconds(3600))).getString("id");
        String sendAt = Api.onlyReminder(id).get("sendAt").toString();
        for (String bad :
                List.of("not-a-time", "2027-02-30T00:00:00Z", "%00", "9".repeat(300), "2027-01-01T00:00:00Z")) {
            given().post("/meetings/" + id + "/reminders/" + bad + "/retry")
                    .then()
                    .statusCode(404)
                    .contentType("application/problem+json");
        }
        given().post("/meetings/not-a-uuid/reminders/" + sendAt + "/retry")
                .then()
                .statusCode(404);
        given().post("/meetings/" + id + "/reminders/" + sendAt + "/retry")
                .then()
                .statusCode(409)
                .body("detail", containsString("SCHEDULED"));
        assertThat(Api.onlyReminder(id)).containsEntry("status", "SCHEDULED").containsEntry("attempts", 0);
    }

    @Test
    void remindersListShowsTheCallersOwnAndAnOperatorEveryones() {
        Instant startsAt = Moments.now().plusSeconds(86_400).plusMillis(7);
        String id = Api.create(meeting().title("Listed").startsAt(startsAt).remindBefore("PT1H", "PT5M"))
                .getString("id");
        String from = startsAt.minusSeconds(7200).toString();
        String to = startsAt.toString();

        given().queryParam("from", from)
                .queryParam("to", to)
                .queryParam("status", "SCHEDULED")
                .get("/reminders")
                .then()
                .statusCode(200)
                .body("total", equalTo(2))
                .body("items.meetingId", equalTo(List.of(id, id)))
                .body("items[0].sendAt", equalTo(startsAt.minusSeconds(3600).toString()))
                .body("items[0].title", equalTo("Listed"))
                .body("items[0].owner", equalTo(Tokens.ownerOf("alice")));
        given().header("Authorization", Tokens.bearer("bob"))
                .queryParam("from", from)
                .queryParam("to", to)
                .get("/reminders")
                .then()
                .statusCode(200)
                .body("total", equalTo(0));
        given().header("Authorization", OPERATOR)
                .queryParam("from", from)
                .queryParam("to", to)
                .get("/reminders")
                .then()
                .statusCode(200)
                .body("items.meetingId", hasItem(id));
        given().queryParam("from", from)
                .queryParam("to", to)
                .queryParam("status", "DELIVERED")
                .get("/reminders")
                .then()
                .statusCode(200)
                .body("total", equalTo(0));
    }

    @Test
    void remindersListRefusesMalformedParametersNamingThem() {
        Map<String, String> bad = Map.of(
                "status", "failed",
                "page", "-1",
                "size", "1000",
                "from", "yesterday",
                "to", "+300000-01-01T00:00:00Z");
        bad.forEach((name, value) -> given().queryParam(name, value)
                .get("/reminders")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", hasItem(name)));
        for (String hostile : List.of("\u0000", "SCHEDULED\nX", "X".repeat(3000), "scheduled")) {
            given().queryParam("status", hostile).get("/reminders").then().statusCode(400);
        }
    }

    @Test
    void onlyOperatorsMayPauseResumeOrLookAtDelivery() {
        for (String call :
                List.of("POST /admin/delivery/pause", "POST /admin/delivery/resume", "GET /admin/delivery")) {
            String[] parts = call.split(" ");
            given().request(parts[0], parts[1])
                    .then()
                    .statusCode(403)
                    .contentType("application/problem+json")
                    .body("detail", containsString("not an operator"));
            given().header("Authorization", "Bearer nonsense")
                    .request(parts[0], parts[1])
                    .then()
                    .statusCode(401);
        }
        given().header("Authorization", OPERATOR)
                .get("/admin/delivery")
                .then()
                .statusCode(200)
                .body("paused", equalTo(false));
    }

    @Test
    void whilePausedNothingIsSentAndOnResumeWhatFellDueIs() {
        String path = "/paused";
        ValidatableResponse paused = given().header("Authorization", OPERATOR)
                .post("/admin/delivery/pause")
                .then()
                .statusCode(200)
                .body("paused", equalTo(true))
                .body("since", notNullValue());
        String since = paused.extract().path("since");
        given().header("Authorization", OPERATOR)
                .post("/admin/delivery/pause")
                .then()
                .body("since", equalTo(since));
        given().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("checks.find { it.name == 'Reminder timers (Redis)' }.data.paused", equalTo(true));
        await().atMost(Duration.ofSeconds(5)).until(() -> metrics().contains("reminders_delivery_paused 1.0"));

        Instant startsAt = Moments.now().plusSeconds(30);
        String id = Api.create(
                        meeting().startsAt(startsAt).remindBefore("PT29S").webhookUrl(receiver.url(path)))
                .getString("id");
        Instant sendAt = startsAt.minusSeconds(29);
        await().pollDelay(Duration.between(Moments.now(), sendAt).plusSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .until(() -> receiver.on(path).isEmpty());
        assertThat(Api.onlyReminder(id)).containsEntry("status", "SCHEDULED");

        given().header("Authorization", OPERATOR)
                .post("/admin/delivery/resume")
                .then()
                .statusCode(200)
                .body("paused", equalTo(false));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "DELIVERED".equals(Api.onlyReminder(id).get("status")));
        assertThat(receiver.on(path)).hasSize(1);
        given().header("Authorization", OPERATOR)
                .get("/admin/delivery")
                .then()
                .body("paused", equalTo(false))
                .body("since", notNullValue());
    }

    @Test
    void eachReplicaReportsItsHealth() {
        await().atMost(Duration.ofSeconds(15)).until(() -> given().header("Authorization", OPERATOR)
                .get("/admin/delivery")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("replicas.ready")
                .contains(true));
        given().header("Authorization", OPERATOR)
                .get("/admin/delivery")
                .then()
                .body("replicas[0].id", notNullValue())
                .body("replicas[0].lastSeen", notNullValue());
    }

    @Test
    void eachRedisConnectionOfAReplicaIsNamedWithTheIdTheReplicasListGivesIt() {
        // The application under test runs in this JVM and class loader: its id is the one this class reads. A test
        // JVM leaves an entry for each start of the application, each with an id of its own.
        String id = ReplicaName.self();
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(given().header("Authorization", OPERATOR)
                        .get("/admin/delivery")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("replicas.id", String.class))
                .contains(id));

        List<RedisClient> named = RedisClient.onMachine().stream()
                .filter(connection -> connection.name().equals(ReplicaName.REDIS_CLIENT_PREFIX + id))
                .toList();
        assertThat(named).as("connections named for %s", id).isNotEmpty();
        // Its subscriptions' connection too: the expired events, the stream's sayings, the secrets' rotations.
        assertThat(named).anyMatch(RedisClient::subscribes);
    }

    private static String metrics() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }
}
