package com.meetingreminders.security;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A meeting belongs to the token's issuer and subject, not to a name claim the caller or its provider may change. */
@QuarkusTest
class IdentityTest {

    private static String create(String token) {
        return Api.createWith("Bearer " + token, meeting());
    }

    @Test
    void aMeetingIsRecordedAsItsCallersIssuerAndSubject() {
        String caller = "owner-" + UUID.randomUUID();

        String id = create(Tokens.of(caller));

        assertThat(Database.queryLong(
                        Database.TEST_DATABASE,
                        "select count(*) from meeting where id = '" + id + "' and owner = '" + Tokens.ownerOf(caller)
                                + "'"))
                .isEqualTo(1);
    }

    @Test
    void aNameClaimEqualToAnotherCallersSubjectDoesNotReachTheirMeetings() {
        String victim = "victim-" + UUID.randomUUID();
        String id = create(Tokens.of(victim));
        // Before, the owner was upn, else preferred_username, else sub: this token would have been the victim.
        Map<String, Object> claims = Tokens.claimsOf("mallory-" + UUID.randomUUID());
        claims.put("upn", victim);
        claims.put("preferred_username", victim);
        String mallory = "Bearer " + Tokens.sign(claims, Tokens.devKey());

        given().header("Authorization", mallory).get("/meetings/" + id).then().statusCode(404);
        given().header("Authorization", mallory)
                .delete("/meetings/" + id)
                .then()
                .statusCode(404);
        given().header("Authorization", mallory).get("/meetings").then().body("total", equalTo(0));
        given().header("Authorization", Tokens.bearer(victim))
                .get("/meetings/" + id)
                .then()
                .statusCode(200);
    }

    @Test
    void aCallersNameClaimsMayChangeWithoutLosingTheirMeetings() {
        String caller = "renamed-" + UUID.randomUUID();
        Map<String, Object> before = Tokens.claimsOf(caller);
        before.put("preferred_username", "old-name");
        String id = create(Tokens.sign(before, Tokens.devKey()));
        Map<String, Object> after = Tokens.claimsOf(caller);
        after.put("preferred_username", "new-name");

        given().header("Authorization", "Bearer " + Tokens.sign(after, Tokens.devKey()))
                .get("/meetings/" + id)
                .then()
                .statusCode(200);
    }
}
