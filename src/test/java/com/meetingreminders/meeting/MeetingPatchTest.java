package com.meetingreminders.meeting;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Moments;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** PATCH /meetings/{id} with a JSON merge patch: only what it names changes. */
@QuarkusTest
class MeetingPatchTest {

    private static final String MERGE_PATCH = "application/merge-patch+json";

    @BeforeAll
    static void logOnlyWhatFails() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void movesAMeetingAndKeepsEveryFieldThePatchDoesNotName() {
        JsonPath created = Api.create(meeting()
                .title("Weekly sync")
                .timeZone("Asia/Shanghai")
                .remindBefore("PT10M")
                .attendees("a@example.com"));
        String id = created.getString("id");
        Instant later = Moments.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);

        JsonPath moved = given().contentType(MERGE_PATCH)
                .header("If-Match", "\"0\"")
                .body(Map.of("startsAt", later.toString()))
                .patch("/meetings/" + id)
                .then()
                .statusCode(200)
                .header("ETag", "\"1\"")
                .extract()
                .jsonPath();

        assertThat(moved.getString("startsAt")).isEqualTo(later.toString());
        assertThat(moved.getString("title")).isEqualTo("Weekly sync");
        assertThat(moved.getString("timeZone")).isEqualTo("Asia/Shanghai");
        assertThat(moved.getList("remindBefore")).containsExactly("PT10M");
        assertThat(moved.getList("attendees")).containsExactly("a@example.com");
        assertThat(Api.reminders(id))
                .extracting(reminder -> reminder.get("status") + " " + reminder.get("sendAt"))
                .containsExactly(
                        "CANCELLED " + Instant.parse(created.getString("reminders[0].sendAt")),
                        "SCHEDULED " + later.minus(Duration.ofMinutes(10)));
    }

    @Test
    void resetsAnOptionalFieldToItsDefaultWhenThePatchSaysNull() {
        String id = Api.create(meeting().timeZone("Europe/Paris").attendees("a@example.com"))
                .getString("id");

        given().contentType(MERGE_PATCH)
                .body("{\"timeZone\": null, \"attendees\": null, \"remindBefore\": null}")
                .patch("/meetings/" + id)
                .then()
                .statusCode(200)
                .body("timeZone", equalTo("UTC"))
                .body("attendees", equalTo(List.of()))
                .body("remindBefore", equalTo(List.of("PT5M")));
    }

    @Test
    void refusesAPatchWithAStaleIfMatchAndChangesNothing() {
        String id = Api.create(meeting().title("Original")).getString("id");
        Api.replace(id, meeting().title("Second"));

        given().contentType(MERGE_PATCH)
                .header("If-Match", "\"0\"")
                .body("{\"title\": \"Lost update\"}")
                .patch("/meetings/" + id)
                .then()
                .statusCode(412)
                .contentType("application/problem+json");
        given().get("/meetings/" + id).then().body("title", equalTo("Second")).body("version", equalTo(1));
    }

    @Test
    void refusesToRemoveARequiredFieldAndChangesNothing() {
        String id = Api.create(meeting().title("Kept")).getString("id");

        given().contentType(MERGE_PATCH)
                .body("{\"title\": null}")
                .patch("/meetings/" + id)
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", hasItem("title"));
        given().get("/meetings/" + id).then().body("title", equalTo("Kept")).body("version", equalTo(0));
    }

    @Test
    void answersNotFoundForAMissingMeeting() {
        given().contentType(MERGE_PATCH)
                .body("{\"title\": \"x\"}")
                .patch("/meetings/" + UUID.randomUUID())
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
    }
}
