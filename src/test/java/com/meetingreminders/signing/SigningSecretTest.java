package com.meetingreminders.signing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.AuthenticatedByDefault;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SigningSecretTest {

    private static final String PROBLEM = "application/problem+json";

    /** A caller of this test alone, so that "first use" is really the first. */
    private static String newCaller() {
        return "signer-" + UUID.randomUUID();
    }

    private static JsonPath get(String caller) {
        return given().header("Authorization", Tokens.bearer(caller))
                .get("/signing-secret")
                .then()
                .statusCode(200)
                .contentType("application/json")
                .extract()
                .jsonPath();
    }

    private static JsonPath rotate(String caller) {
        return given().header("Authorization", Tokens.bearer(caller))
                .post("/signing-secret/rotate")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void aCallersSecretIsMadeOnFirstUseAndStaysTheSame() {
        String caller = newCaller();
        JsonPath first = get(caller);

        String secret = first.getString("secret");
        assertThat(secret).startsWith("whsec_");
        assertThat(Base64.getDecoder().decode(secret.substring("whsec_".length())))
                .hasSizeBetween(24, 64);
        assertThat(Instant.parse(first.getString("createdAt")))
                .isBefore(Instant.now().plusSeconds(1));
        assertThat(first.getMap("$")).doesNotContainKey("previous");
        assertThat(get(caller).getString("secret")).isEqualTo(secret);
        assertThat(get(caller).getString("createdAt")).isEqualTo(first.getString("createdAt"));
    }

    @Test
    void everyCallerHasASecretOfItsOwn() {
        assertThat(get(newCaller()).getString("secret"))
                .isNotEqualTo(get(newCaller()).getString("secret"));
    }

    @Test
    void callersAskingAtOnceForTheirFirstSecretAllGetTheSameOne() {
        String caller = newCaller();
        List<CompletableFuture<String>> asking = IntStream.range(0, 8)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> get(caller).getString("secret")))
                .toList();

        Set<String> secrets = asking.stream().map(CompletableFuture::join).collect(Collectors.toSet());

        assertThat(secrets).hasSize(1);
        assertThat(Database.queryLong(
                        Database.TEST_DATABASE,
                        "select count(*) from signing_secret where owner = '" + Tokens.ownerOf(caller) + "'"))
                .isEqualTo(1);
    }

    @Test
    void rotatingGivesANewSecretAndKeepsTheOldOneBesideItForADay() {
        String caller = newCaller();
        String old = get(caller).getString("secret");

        JsonPath rotated = rotate(caller);

        String fresh = rotated.getString("secret");
        assertThat(fresh).startsWith("whsec_").isNotEqualTo(old);
        assertThat(rotated.getString("previous.secret")).isEqualTo(old);
        Instant createdAt = Instant.parse(rotated.getString("createdAt"));
        assertThat(Instant.parse(rotated.getString("previous.expiresAt")))
                .isEqualTo(createdAt.plus(Duration.ofHours(24)));
        // What GET answers from now on.
        JsonPath after = get(caller);
        assertThat(after.getString("secret")).isEqualTo(fresh);
        assertThat(after.getString("previous.secret")).isEqualTo(old);
    }

    @Test
    void aSecondRotationKeepsOnlyTheSecretItReplaces() {
        String caller = newCaller();
        String first = get(caller).getString("secret");
        String second = rotate(caller).getString("secret");

        JsonPath third = rotate(caller);

        assertThat(third.getString("previous.secret")).isEqualTo(second);
        assertThat(List.of(third.getString("secret"), third.getString("previous.secret")))
                .doesNotContain(first);
    }

    @Test
    void rotatingTakesNoBodyAndNoContentType() throws Exception {
        // RestAssured always names a content type; the JDK client sends none unless told.
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/signing-secret/rotate"))
                .header("Authorization", Tokens.bearer(newCaller()))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();

        HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains("\"secret\":\"whsec_");
    }

    @Test
    void withoutATokenBothCallsAre401ProblemJson() {
        AuthenticatedByDefault.suspend();
        given().get("/signing-secret")
                .then()
                .statusCode(401)
                .contentType(PROBLEM)
                .header("WWW-Authenticate", "Bearer")
                .body("status", equalTo(401));
        given().post("/signing-secret/rotate")
                .then()
                .statusCode(401)
                .contentType(PROBLEM)
                .body("status", equalTo(401));
    }

    @Test
    void theOpenApiDescriptionListsBothCalls() {
        given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .body("paths.'/signing-secret'.get.responses.'200'", org.hamcrest.Matchers.notNullValue())
                .body("paths.'/signing-secret/rotate'.post.responses.'401'", org.hamcrest.Matchers.notNullValue());
    }
}
