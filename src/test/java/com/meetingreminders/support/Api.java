package com.meetingreminders.support;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;

/** The service's REST API as tests use it when they only need a call to succeed. */
public final class Api {

    private Api() {}

    /** Pauses delivery as an operator; answered once the rounds under way have ended. Resume it after the test. */
    public static void pauseDelivery() {
        asOperator("/admin/delivery/pause");
    }

    /** Resumes delivery as an operator: after each test that pauses it, so that the tests after it deliver. */
    public static void resumeDelivery() {
        asOperator("/admin/delivery/resume");
    }

    private static void asOperator(String path) {
        given().header("Authorization", "Bearer " + Tokens.operator("olga"))
                .post(path)
                .then()
                .statusCode(200);
    }

    /** Creates a meeting and returns it as answered. */
    public static JsonPath create(MeetingBody body) {
        return given().contentType(ContentType.JSON)
                .body(body.toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    /** Creates a meeting with this Authorization header ({@code Bearer ...}) and returns its id. */
    public static String createWith(String authorization, MeetingBody body) {
        return given().header("Authorization", authorization)
                .contentType(ContentType.JSON)
                .body(body.toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** Creates the meetings in one POST /meetings/batch and returns their ids, in order. */
    public static List<String> createAll(List<MeetingBody> bodies) {
        return given().contentType(ContentType.JSON)
                .body(bodies.stream().map(MeetingBody::toMap).toList())
                .post("/meetings/batch")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getList("items.id", String.class);
    }

    public static JsonPath replace(String id, MeetingBody body) {
        return given().contentType(ContentType.JSON)
                .body(body.toMap())
                .put("/meetings/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    public static List<Map<String, Object>> reminders(String id) {
        return given().get("/meetings/" + id + "/reminders")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("$");
    }

    /** The reminder of a meeting that has one. */
    public static Map<String, Object> onlyReminder(String id) {
        return reminders(id).get(0);
    }

    /** The deliveryId of the meeting's reminder sent at sendAt: {meetingId}:{epoch ms}. */
    public static String deliveryId(String meetingId, java.time.Instant sendAt) {
        return meetingId + ":" + sendAt.toEpochMilli();
    }
}
