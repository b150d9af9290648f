package com.meetingreminders.security;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A token the service has verified is not verified again on each call, and that changes nothing a caller can see:
 * each call is still its own caller's, a token changed after signing is still refused, and an expired one too.
 */
@QuarkusTest
class VerifiedTokensTest {

    @Test
    void callersTakingTurnsEachSeeTheirOwnMeetings() {
        String alice = Tokens.bearer("turns-a-" + UUID.randomUUID());
        String bob = Tokens.bearer("turns-b-" + UUID.randomUUID());
        String alices = Api.createWith(alice, meeting().title("Alice's"));
        String bobs = Api.createWith(bob, meeting().title("Bob's"));

        for (int turn = 0; turn < 3; turn++) {
            given().header("Authorization", alice).get("/meetings").then().body("items.id", equalTo(List.of(alices)));
            given().header("Authorization", bob).get("/meetings").then().body("items.id", equalTo(List.of(bobs)));
            given().header("Authorization", bob)
                    .get("/meetings/" + alices)
                    .then()
                    .statusCode(404);
        }
    }

    @Test
    void aVerifiedTokenWithItsClaimsChangedAfterSigningIsRefused() {
        String victim = "signed-" + UUID.randomUUID();
        String token = Tokens.of(victim);
        String id = Api.createWith("Bearer " + token, meeting());
        // The victim's signature under another caller's claims: a token the service has just accepted, but for one
        // part.
        String other = Tokens.of("mallory-" + UUID.randomUUID());
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + other.split("\\.")[1] + "." + parts[2];

        given().header("Authorization", "Bearer " + forged)
                .get("/meetings")
                .then()
                .statusCode(401);
        given().header("Authorization", "Bearer " + token + "x")
                .get("/meetings")
                .then()
                .statusCode(401);
        given().header("Authorization", "Bearer " + token)
                .get("/meetings/" + id)
                .then()
                .statusCode(200);
    }

    @Test
    void aVerifiedTokenIsRefusedOnceItExpires() {
        Map<String, Object> claims = Tokens.claimsOf("expiring-" + UUID.randomUUID());
        Instant expiresAt = Instant.now().plusSeconds(10);
        claims.put("exp", expiresAt.getEpochSecond());
        String bearer = "Bearer " + Tokens.sign(claims, Tokens.devKey());
        given().header("Authorization", bearer).get("/meetings").then().statusCode(200);

        // Remembered for a minute it would still pass; verified again, it is refused a second after its exp (the
        // test profile's leeway).
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(100))
                .until(() ->
                        given().header("Authorization", bearer).get("/meetings").statusCode() == 401);
        assertThat(Instant.now()).isAfterOrEqualTo(Instant.ofEpochSecond(expiresAt.getEpochSecond()));
    }
}
