package com.meetingreminders.signing;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.DefaultTarget;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Signatures;
import com.meetingreminders.support.TestServers;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.support.WebhookReceiver.Received;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/**
 * Which secret signs what, across a rotation, checked with the Standard Webhooks library as a receiver would. In an
 * application of its own: a short rotation overlap, and a default target of the test's own.
 */
@QuarkusTest
@TestProfile(SigningRotationTest.ShortOverlap.class)
@QuarkusTestResource(value = DefaultTarget.class, restrictToAnnotatedClass = true)
class SigningRotationTest {

    /** Long enough for a reminder due at once to arrive well within it, short enough to wait for its end. */
    private static final Duration OVERLAP = Duration.ofSeconds(8);

    public static class ShortOverlap implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("reminders.webhook.rotation-overlap", OVERLAP.toSeconds() + "s");
        }
    }

    @TestServers.Injected
    WebhookReceiver defaultTarget;

    @Inject
    RecentSecrets recentSecrets;

    @Inject
    SigningSecretStore store;

    @Inject
    RedissonClient redis;

    @Inject
    ReminderKeys keys;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    /** Sends a reminder of the caller at once to the url (or to the default target) and returns what arrived. */
    private Received sendNow(String caller, String url, WebhookReceiver at, String path) {
        MeetingBody body = meeting().startsAt(Moments.now().plusSeconds(60)).remindBefore("PT2M");
        String id = Api.createWith(Tokens.bearer(caller), url == null ? body : body.webhookUrl(url));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> at.on(path).stream().anyMatch(r -> r.deliveryId().startsWith(id)));
        return at.on(path).stream()
                .filter(r -> r.deliveryId().startsWith(id))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void duringTheOverlapBothSecretsVerifyAndAfterItOnlyTheNewOne() {
        String caller = "rotating-" + UUID.randomUUID();
        String old = Signatures.secretOf(caller);
        // A delivery before the rotation: this replica holds the caller's secrets from then on.
        Received before = sendNow(caller, receiver.url("/before"), receiver, "/before");
        assertThat(Signatures.failure(old, before)).as("the old secret, before").isEmpty();
        assertThat(recentSecrets.of(Set.of(Tokens.ownerOf(caller))))
                .as("held here")
                .isNotEmpty();
        JsonPath rotated = given().header("Authorization", Tokens.bearer(caller))
                .post("/signing-secret/rotate")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        String fresh = rotated.getString("secret");
        Instant overlapEnds = Instant.parse(rotated.getString("previous.expiresAt"));

        Received during = sendNow(caller, receiver.url("/during"), receiver, "/during");

        assertThat(Long.parseLong(during.header("webhook-timestamp")))
                .as("sent within the overlap")
                .isLessThan(overlapEnds.getEpochSecond());
        assertThat(during.header("webhook-signature").split(" ")).hasSize(2);
        assertThat(Signatures.failure(old, during)).as("the old secret").isEmpty();
        assertThat(Signatures.failure(fresh, during)).as("the new secret").isEmpty();

        // The overlap ends: GET no longer shows the old secret, and it no longer signs.
        await().atMost(OVERLAP.plusSeconds(10)).until(() -> !given().header("Authorization", Tokens.bearer(caller))
                .get("/signing-secret")
                .then()
                .extract()
                .jsonPath()
                .getMap("$")
                .containsKey("previous"));
        Received after = sendNow(caller, receiver.url("/after"), receiver, "/after");

        assertThat(after.header("webhook-signature").split(" ")).hasSize(1);
        assertThat(Signatures.failure(fresh, after)).as("the new secret").isEmpty();
        assertThat(Signatures.verifies(old, after)).as("the old secret").isFalse();
    }

    @Test
    void aRotationThroughAnotherReplicaSignsWithTheNewSecretHere() {
        String caller = "rotated-elsewhere-" + UUID.randomUUID();
        String old = Signatures.secretOf(caller);
        Received before = sendNow(caller, receiver.url("/held"), receiver, "/held");
        assertThat(Signatures.failure(old, before)).as("the old secret, before").isEmpty();
        String owner = Tokens.ownerOf(caller);
        assertThat(recentSecrets.of(Set.of(owner))).as("held here").containsKey(owner);

        // What POST /signing-secret/rotate does on another replica: the row, then the saying to every replica.
        Instant now = Instant.now();
        StoredSecrets rotated =
                QuarkusTransaction.requiringNew().call(() -> store.rotate(owner, now, now.plus(OVERLAP)));
        new RecentSecrets(redis, keys).rotated(owner);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> recentSecrets.of(Set.of(owner)).isEmpty());
        Received after =
                sendNow(caller, receiver.url("/after-rotation-elsewhere"), receiver, "/after-rotation-elsewhere");

        assertThat(Signatures.failure(rotated.current().encoded(), after))
                .as("the new secret")
                .isEmpty();
    }

    @Test
    void theDeploymentsSecretSignsTheDefaultTargetAndNothingElse() {
        String caller = Tokens.DEFAULT_CALLER;

        Received toDefault = sendNow(caller, null, defaultTarget, DefaultTarget.PATH);
        Received toOwn = sendNow(caller, receiver.url("/own"), receiver, "/own");

        assertThat(Signatures.failure(Signatures.TEST_SECRET, toDefault)).isEmpty();
        assertThat(Signatures.verifies(Signatures.secretOf(caller), toDefault)).isFalse();
        assertThat(Signatures.failure(Signatures.secretOf(caller), toOwn)).isEmpty();
        assertThat(Signatures.verifies(Signatures.TEST_SECRET, toOwn)).isFalse();
        assertThat(Api.reminders(toOwn.json().path("meetingId").asText()))
                .extracting(r -> r.get("status"))
                .containsOnly("DELIVERED");
    }

    @Test
    void aHeldSecretIsNotUsedOnceThirtySecondsHavePassed() {
        String owner = Tokens.ownerOf("aging-" + UUID.randomUUID());
        QuarkusTransaction.requiringNew().run(() -> store.createIfMissing(List.of(owner), Instant.now()));
        AtomicLong ticker = new AtomicLong();
        RecentSecrets recent = new RecentSecrets(redis, keys, ticker::get);
        recent.subscribe();
        try {
            RecentSecrets.ReadStart start = recent.beginRead();
            recent.keep(store.find(List.of(owner)), start);

            ticker.addAndGet(RecentSecrets.MAX_AGE.minusMillis(1).toNanos());
            assertThat(recent.of(Set.of(owner))).as("held just under 30 s").containsKey(owner);
            ticker.addAndGet(Duration.ofMillis(1).toNanos());
            assertThat(recent.of(Set.of(owner))).as("after 30 s").isEmpty();
        } finally {
            recent.unsubscribe();
        }
    }
}
