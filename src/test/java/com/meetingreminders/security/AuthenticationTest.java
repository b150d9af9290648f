package com.meetingreminders.security;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.AuthenticatedByDefault;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@QuarkusTest
class AuthenticationTest {

    private static final String PROBLEM = "application/problem+json";

    /** This class sends exactly the Authorization header each test names, or none. */
    @BeforeEach
    void noDefaultToken() {
        AuthenticatedByDefault.suspend();
    }

    static Stream<String> badTokens() throws NoSuchAlgorithmException {
        PrivateKey otherKey =
                KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate();
        Instant now = Instant.now();
        Instant inAnHour = now.plusSeconds(3600);
        return Stream.of(
                "not-a-jwt",
                // Signed by a key the service does not trust.
                Tokens.sign(Tokens.DEV_ISSUER, "alice", now, inAnHour, otherKey),
                // Expired.
                Tokens.sign(
                        Tokens.DEV_ISSUER, "alice", now.minusSeconds(7200), now.minusSeconds(3600), Tokens.devKey()),
                // Another issuer.
                Tokens.sign("someone-else", "alice", now, inAnHour, Tokens.devKey()),
                // Meant for another service, or for none (mp.jwt.verify.audiences is set).
                Tokens.sign(withClaim("aud", "another-service"), Tokens.devKey()),
                Tokens.sign(withClaim("aud", null), Tokens.devKey()),
                // No subject: the caller is its issuer and subject, even when a name claim is there.
                Tokens.sign(withClaim("sub", null, "upn", "alice"), Tokens.devKey()),
                // A subject the database cannot hold.
                Tokens.sign(withClaim("sub", "alice\u0000x"), Tokens.devKey()));
    }

    /** The claims of a valid token of alice, with these claims set, or removed where the value is null. */
    private static Map<String, Object> withClaim(String... namesAndValues) {
        Map<String, Object> claims = Tokens.claimsOf("alice");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] == null) {
                claims.remove(namesAndValues[i]);
            } else {
                claims.put(namesAndValues[i], namesAndValues[i + 1]);
            }
        }
        return claims;
    }

    @Test
    void everyApiCallWithoutATokenIs401ProblemJsonAndStoresNothing() {
        long before = Database.countMeetings();
        String id = "00000000-0000-0000-0000-000000000001";
        expect401(given().contentType(ContentType.JSON)
                .body(meeting().toMap())
                .post("/meetings")
                .then());
        expect401(given().contentType(ContentType.JSON)
                .body("[]")
                .post("/meetings/batch")
                .then());
        expect401(given().get("/meetings").then());
        expect401(given().get("/meetings/" + id).then());
        expect401(given().contentType(ContentType.JSON)
                .body(meeting().toMap())
                .put("/meetings/" + id)
                .then());
        expect401(given().delete("/meetings/" + id).then());
        expect401(given().get("/meetings/" + id + "/reminders").then());
        expect401(given().accept("text/event-stream").get("/reminders/stream").then());
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("badTokens")
    void aTokenThatDoesNotVerifyIs401(String token) {
        long before = Database.countMeetings();
        expect401(given().header("Authorization", "Bearer " + token)
                .contentType(ContentType.JSON)
                .body(meeting().toMap())
                .post("/meetings")
                .then());
        expect401(given().header("Authorization", "Bearer " + token)
                .get("/meetings")
                .then());
        assertThat(Database.countMeetings()).isEqualTo(before);
    }

    @Test
    void healthStaysOpen() {
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void aMeetingIsNotFoundForAnotherCaller() {
        // Callers of this test alone: their lists hold only what the test creates.
        String alice = Tokens.bearer("carol-" + UUID.randomUUID());
        String bob = Tokens.bearer("dave-" + UUID.randomUUID());
        String id = given().header("Authorization", alice)
                .contentType(ContentType.JSON)
                .body(meeting().title("Alice's").toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        given().header("Authorization", bob).get("/meetings/" + id).then().statusCode(404);
        given().header("Authorization", bob)
                .get("/meetings/" + id + "/reminders")
                .then()
                .statusCode(404);
        given().header("Authorization", bob)
                .contentType(ContentType.JSON)
                .body(meeting().title("Bob's now").toMap())
                .put("/meetings/" + id)
                .then()
                .statusCode(404);
        given().header("Authorization", bob).delete("/meetings/" + id).then().statusCode(404);
        given().header("Authorization", bob)
                .get("/meetings")
                .then()
                .statusCode(200)
                .body("total", equalTo(0));

        // Nothing bob did reached alice's meeting.
        given().header("Authorization", alice)
                .get("/meetings/" + id)
                .then()
                .statusCode(200)
                .body("title", equalTo("Alice's"))
                .body("version", equalTo(0));
        given().header("Authorization", alice).get("/meetings").then().body("items.id", equalTo(List.of(id)));
    }

    private static void expect401(io.restassured.response.ValidatableResponse answer) {
        answer.statusCode(401)
                .contentType(PROBLEM)
                .header("WWW-Authenticate", "Bearer")
                .body("status", equalTo(401))
                .body("title", equalTo("Unauthorized"));
    }
}
