package com.meetingreminders.limits;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.MeetingBody;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;

/**
 * The limits kept for each caller, in an application of their own with low limits. Each test is a caller of its own,
 * so that no test uses up another's room.
 */
@QuarkusTest
@TestProfile(FairUseTest.LowLimits.class)
class FairUseTest {

    static final int MEETINGS_HELD = 3;
    static final int REMINDERS_PER_MINUTE = 4;
    static final int EMAILS_PER_HOUR = 6;
    static final int OPEN_STREAMS = 2;
    static final Duration STREAM_LEASE = Duration.ofSeconds(3);

    /** Low limits; e-mail on (to the mock mailer), so that the e-mail limit holds. */
    public static class LowLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "reminders.limits.meetings-held", Integer.toString(MEETINGS_HELD),
                    "reminders.limits.reminders-per-minute", Integer.toString(REMINDERS_PER_MINUTE),
                    "reminders.limits.emails-per-hour", Integer.toString(EMAILS_PER_HOUR),
                    "reminders.limits.open-streams", Integer.toString(OPEN_STREAMS),
                    "reminders.limits.stream-lease", STREAM_LEASE.toSeconds() + "s",
                    "reminders.email.enabled", "true");
        }
    }

    @TestHTTPResource("/reminders/stream")
    URI stream;

    @Inject
    RedissonClient redis;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Inject
    ReminderKeys keys;

    private final String caller = "fair-use-" + UUID.randomUUID();

    @Test
    void aCallerHoldsNoMoreMeetingsThanItsLimitAndADeleteMakesRoom() {
        List<String> ids = Stream.generate(
                        () -> create(meeting()).statusCode(201).extract().<String>path("id"))
                .limit(MEETINGS_HELD)
                .toList();

        overLimit(create(meeting()), "meetings-held").header("Retry-After", "60");
        assertThat(total()).isEqualTo(MEETINGS_HELD);
        // Another caller has room of its own.
        given().header("Authorization", Tokens.bearer(caller + "-other"))
                .contentType(ContentType.JSON)
                .body(meeting().toMap())
                .post("/meetings")
                .then()
                .statusCode(201);

        as().delete("/meetings/" + ids.get(0)).then().statusCode(204);
        create(meeting()).statusCode(201);
    }

    @Test
    void aBatchCountsEachOfItsMeetingsAndStoresNoneOverTheLimit() {
        create(meeting()).statusCode(201);

        overLimit(batch(meeting(), meeting(), meeting()), "meetings-held");
        assertThat(total()).isEqualTo(1);
        batch(meeting(), meeting()).statusCode(201);
    }

    @Test
    void remindersDueWithinOneMinuteAreLimitedWhenAMeetingIsCreatedOrMoved() {
        Instant minute = Moments.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MINUTES);
        String first = create(meeting().startsAt(minute.plusSeconds(50)).remindBefore("PT10S", "PT20S", "PT30S"))
                .statusCode(201)
                .extract()
                .path("id");

        long retryAfter = Long.parseLong(overLimit(
                        create(meeting().startsAt(minute.plusSeconds(55)).remindBefore("PT1S", "PT2S")),
                        "reminders-per-minute")
                .extract()
                .header("Retry-After"));
        // The same request cannot succeed before that minute is over.
        assertThat(retryAfter).isGreaterThan(Duration.ofHours(1).toSeconds());
        create(meeting().startsAt(minute.plusSeconds(55)).remindBefore("PT1S")).statusCode(201);

        // Moving a meeting into the full minute is refused and leaves it as it was.
        MeetingBody later = meeting().startsAt(minute.plusSeconds(90)).remindBefore("PT1S");
        String moved = create(later).statusCode(201).extract().path("id");
        overLimit(
                replace(moved, meeting().startsAt(minute.plusSeconds(40)).remindBefore("PT1S")),
                "reminders-per-minute");
        as().get("/meetings/" + moved)
                .then()
                .body("startsAt", equalTo(minute.plusSeconds(90).toString()));
        // What was accepted is not held back, and a change that frees a place makes room.
        as().get("/meetings/" + first).then().body("reminders.findAll { it.status == 'SCHEDULED' }", hasSize(3));
        replace(first, meeting().startsAt(minute.plusSeconds(50)).remindBefore("PT10S", "PT20S"))
                .statusCode(200);
        replace(moved, meeting().startsAt(minute.plusSeconds(40)).remindBefore("PT1S"))
                .statusCode(200);
    }

    @Test
    void remindersAlreadyDueCountInTheMinuteTheyAreCreated() {
        // Their send times are hours apart, but they all fall due now.
        overLimit(
                batch(meeting().remindBefore("PT2H", "PT3H", "PT4H"), meeting().remindBefore("PT5H", "PT6H")),
                "reminders-per-minute");
        assertThat(total()).isZero();
    }

    @Test
    void aRetryCountsAsAReminderFallingDueInItsMinute() {
        String id = dueToAFailingReceiver(meeting());
        String retry = retryOf(id);

        // The create and each retry fall due in the minute they are made in. However the minutes fall, three of them
        // cannot hold three times the limit and one more: one of that many retries is refused, unless they take more
        // than two minutes in all.
        ValidatableResponse answer = null;
        for (int retries = 1; retries <= 3 * REMINDERS_PER_MINUTE; retries++) {
            await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(status(id)));
            answer = as().post(retry).then();
            if (answer.extract().statusCode() != 202) {
                break;
            }
        }
        overLimit(answer, "reminders-per-minute");
        assertThat(status(id)).as("refused, the reminder stays as it was").isEqualTo("FAILED");
    }

    @Test
    void aRetryCountsOnlyTheEMailsItStillOwes() {
        // The e-mails go out and the webhook fails: FAILED, with every attendee reached. Half the hour's e-mails.
        String id = dueToAFailingReceiver(meeting().attendees("a@example.com", "b@example.com", "c@example.com"));

        // Each retry owes the webhook alone: were its e-mails counted again, the second would be over the hour's six.
        for (int retry = 1; retry <= 2; retry++) {
            await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(status(id)));
            as().post(retryOf(id)).then().statusCode(202);
        }
    }

    /**
     * Creates the meeting with one reminder, due at once, to a receiver that answers every request with 500: FAILED
     * after its attempts, and after each retry's. Returns the meeting's id.
     */
    private String dueToAFailingReceiver(MeetingBody body) {
        receiver.alwaysAnswer("/failing", 500);
        return create(body.startsAt(Moments.now().plus(Duration.ofHours(1)))
                        .remindBefore("PT2H")
                        .webhookUrl(receiver.url("/failing")))
                .statusCode(201)
                .extract()
                .path("id");
    }

    private String retryOf(String id) {
        String sendAt = as().get("/meetings/" + id).then().extract().path("reminders[0].sendAt");
        return "/meetings/" + id + "/reminders/" + sendAt + "/retry";
    }

    private String status(String id) {
        return as().get("/meetings/" + id).then().extract().path("reminders[0].status");
    }

    @Test
    void eMailsWithinOneHourAreLimitedAlsoWhenAttendeesAreAdded() {
        Instant hour = Moments.now().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.HOURS);
        MeetingBody sixEmails = meeting()
                .startsAt(hour.plus(Duration.ofMinutes(30)))
                .remindBefore("PT1M", "PT2M")
                .attendees("a@example.com", "b@example.com", "c@example.com");
        String full = create(sixEmails).statusCode(201).extract().path("id");

        overLimit(
                create(meeting()
                        .startsAt(hour.plus(Duration.ofMinutes(40)))
                        .remindBefore("PT1M")
                        .attendees("d@example.com")),
                "emails-per-hour");
        String quiet = create(
                        meeting().startsAt(hour.plus(Duration.ofMinutes(40))).remindBefore("PT1M"))
                .statusCode(201)
                .extract()
                .path("id");
        overLimit(
                replace(full, sixEmails.attendees("a@example.com", "b@example.com", "c@example.com", "d@example.com")),
                "emails-per-hour");
        as().get("/meetings/" + full).then().body("attendees", hasSize(3));

        replace(full, sixEmails.attendees("a@example.com", "b@example.com")).statusCode(200);
        replace(
                        quiet,
                        meeting()
                                .startsAt(hour.plus(Duration.ofMinutes(40)))
                                .remindBefore("PT1M")
                                .attendees("d@example.com", "e@example.com"))
                .statusCode(200);
    }

    @Test
    void aCallerOpensNoMoreStreamsThanItsLimitAndAClosedOneMakesRoom() {
        String token = Tokens.of(caller);
        EventStream first = EventStream.open(stream, token);
        EventStream second = EventStream.open(stream, token);
        assertThat(List.of(first.status(), second.status())).containsOnly(200);

        try (EventStream refused = EventStream.open(stream, token)) {
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(refused.header("Retry-After")).isEqualTo(Long.toString(STREAM_LEASE.toSeconds()));
            await().atMost(Duration.ofSeconds(5)).until(refused::hasEnded);
            assertThat(refused.body()).contains("open-streams");
        }
        try (EventStream others = EventStream.open(stream, Tokens.of(caller + "-other"))) {
            assertThat(others.status()).isEqualTo(200);
        }

        first.close();
        try (EventStream third = await().atMost(Duration.ofSeconds(10))
                .until(() -> EventStream.open(stream, token), opened -> opened.status() == 200)) {
            second.close();
        }
    }

    @Test
    void aStreamEndsWhenItsTokenExpires() {
        Instant now = Instant.now();
        Instant expiry = now.truncatedTo(ChronoUnit.SECONDS).plusSeconds(3);
        String token = Tokens.sign(Tokens.DEV_ISSUER, caller, now, expiry, Tokens.devKey());

        try (EventStream expiring = EventStream.open(stream, token)) {
            assertThat(expiring.status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(expiring::hasEnded);
            assertThat(expiring.endedAt()).isAfterOrEqualTo(expiry.minusMillis(100));
        }
        // Nothing of it is left on the replica: with no stream open, it stops listening for deliveries.
        RTopic delivered = redis.getTopic(keys.deliveredChannel());
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.countSubscribers() == 0);
        // Its place is free again.
        List<EventStream> streams = Stream.generate(() -> EventStream.open(stream, Tokens.of(caller)))
                .limit(OPEN_STREAMS)
                .toList();
        assertThat(streams).allSatisfy(open -> assertThat(open.status()).isEqualTo(200));
        streams.forEach(EventStream::close);
    }

    private RequestSpecification as() {
        return given().header("Authorization", Tokens.bearer(caller));
    }

    private ValidatableResponse create(MeetingBody body) {
        return as().contentType(ContentType.JSON)
                .body(body.toMap())
                .post("/meetings")
                .then();
    }

    private ValidatableResponse replace(String id, MeetingBody body) {
        return as().contentType(ContentType.JSON)
                .body(body.toMap())
                .put("/meetings/" + id)
                .then();
    }

    private ValidatableResponse batch(MeetingBody... bodies) {
        return as().contentType(ContentType.JSON)
                .body(Stream.of(bodies).map(MeetingBody::toMap).toList())
                .post("/meetings/batch")
                .then();
    }

    private int total() {
        return as().get("/meetings").then().statusCode(200).extract().path("total");
    }

    /** A 429 problem naming the limit, with a Retry-After in whole seconds. */
    private static ValidatableResponse overLimit(ValidatableResponse answer, String limit) {
        return answer.statusCode(429)
                .contentType("application/problem+json")
                .body("status", equalTo(429))
                .body("type", equalTo("/problems/limit-exceeded"))
                .body("detail", containsString(limit))
                .header("Retry-After", org.hamcrest.Matchers.matchesRegex("[1-9][0-9]*"));
    }
}
