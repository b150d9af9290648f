package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.meetingreminders.notify.Announcement;
import com.meetingreminders.notify.StreamChannel;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.RedisServer;
import com.meetingreminders.support.TestServers;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.timer.ReminderKeys;
import com.meetingreminders.timer.ReminderRef;
import com.meetingreminders.timer.ReminderTimers;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis of the test's own that hangs (SIGSTOP) rather than fails: each call to it then waits out its timeout (and most
 * a retry), and Redis runs every call it got once it resumes. One delivery worker and rounds of ten, so that the
 * rounds' commits queue behind one another, as they do behind four workers under load; a lease longer than any wait
 * here, so that a reminder leased to no one shows.
 */
@QuarkusTest
@TestProfile(RedisHangTest.OneWorkerSmallRounds.class)
class RedisHangTest {

    public static class OneWorkerSmallRounds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "reminders.delivery.workers",
                    "1",
                    "reminders.delivery.batch-size",
                    "10",
                    // A reminder leased to no one waits out the lease: longer than any test here waits.
                    "reminders.claim.lease",
                    "10m");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(TestServers.OwnRedis.class));
        }
    }

    private static final int REMINDERS = 40;

    @TestServers.Injected
    RedisServer redis;

    @Inject
    ReminderKeys keys;

    @Inject
    StreamChannel streamChannel;

    @Inject
    ReminderTimers timers;

    @TestHTTPResource("/reminders/stream")
    URI stream;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void roundsFinishingWhileRedisHangsRecordTheirOutcomesAndSendNothingTwice() {
        // Held back together, so that one sweep takes them all, in four rounds, once delivery resumes.
        Api.pauseDelivery();
        List<String> meetings;
        try {
            meetings = IntStream.range(0, REMINDERS)
                    .mapToObj(i -> Api.create(meeting()
                                    .startsAt(Moments.now().plusSeconds(60))
                                    .remindBefore("PT2M")
                                    .webhookUrl(receiver.url("/hang")))
                            .getString("id"))
                    .toList();
            receiver.holdAnswers();
        } finally {
            Api.resumeDelivery();
        }
        // Every round has locked its reminders and sent them: Redis hangs now, before any round has finished.
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.unanswered().size() == REMINDERS);
        redis.freeze();
        try {
            receiver.releaseAnswers();

            // The outcomes are PostgreSQL's: they are recorded while Redis hangs, however many rounds wait to.
            await().atMost(Duration.ofSeconds(60)).until(() -> delivered(meetings) == REMINDERS);
        } finally {
            redis.thaw();
        }

        // Redis hears of every outcome once it answers again, so that no entry of these can come due again.
        await().atMost(Duration.ofSeconds(60)).until(() -> meetings.stream().noneMatch(this::scheduled));
        assertThat(receiver.deliveryCounts())
                .hasSize(REMINDERS)
                .allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
    }

    @Test
    void sweepsAndClaimsThatRedisRunsAfterTheirCallerGaveUpLeaseNothing() {
        Api.pauseDelivery();
        try {
            // Due already: while delivery is paused it waits on the schedule, leased to no one.
            String id = Api.create(meeting()
                            .startsAt(Moments.now().plusSeconds(600))
                            .remindBefore("PT11M")
                            .webhookUrl(receiver.url("/due-during-hang")))
                    .getString("id");
            ReminderRef due = refOf(id);
            redis.freeze();
            try {
                // A sweep and a claim of this replica's, each given up after its timeout: Redis keeps them, and runs
                // them as soon as it resumes.
                assertThatThrownBy(() -> timers.sweep(10)).isInstanceOf(RuntimeException.class);
                assertThatThrownBy(() -> timers.claim(List.of(due))).isInstanceOf(RuntimeException.class);
            } finally {
                redis.thaw();
            }
        } finally {
            Api.resumeDelivery();
        }

        // Leased to no one, it would go out only once the lease ran out: after its meeting started, or never.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !receiver.on("/due-during-hang").isEmpty());
        assertThat(receiver.on("/due-during-hang")).hasSize(1);
    }

    @Test
    void aRoundWhosePublishWaitsOutRedisIsAnnouncedOnce() {
        try (EventStream events = EventStream.connect(stream, Tokens.DEFAULT_CALLER)) {
            // The client's stream takes announcements once one sent to it has arrived.
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                streamChannel.publish(announcement("before"));
                return !events.about("before").isEmpty();
            });

            redis.freeze();
            CompletableFuture<Boolean> published;
            try {
                published = streamChannel.publish(announcement("during"));
                // Every try the client makes has timed out by then: a Redis that only hung runs each one it got.
                await().atMost(Duration.ofSeconds(30)).until(published::isDone);
            } finally {
                redis.thaw();
            }
            assertThat(published.join()).as("reported as published").isFalse();

            // Redis runs what it got while it hung as soon as it resumes, every try of the hung publish together: a
            // publish sent once the first of them was heard comes after them all.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !events.about("during").isEmpty());
            streamChannel.publish(announcement("after"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !events.about("after").isEmpty());
            assertThat(events.about("during")).hasSize(1);
        }
    }

    private static List<Announcement> announcement(String text) {
        return List.of(new Announcement(Tokens.ownerOf(Tokens.DEFAULT_CALLER), "{\"when\":\"" + text + "\"}"));
    }

    private static long delivered(List<String> meetings) {
        return Database.queryLong(
                Database.TEST_DATABASE,
                "select count(*) from reminder where status = 'DELIVERED' and meeting_id in ('"
                        + String.join("', '", meetings) + "')");
    }

    /** Whether the meeting's one reminder still has an entry in the schedule. */
    private boolean scheduled(String meeting) {
        ReminderRef ref = refOf(meeting);
        return !redis.cli("ZSCORE", keys.schedule(keys.shardOf(ref)), ref.id()).isEmpty();
    }

    private static ReminderRef refOf(String meeting) {
        Instant sendAt = Instant.parse(Api.onlyReminder(meeting).get("sendAt").toString());
        return new ReminderRef(UUID.fromString(meeting), sendAt);
    }
}
