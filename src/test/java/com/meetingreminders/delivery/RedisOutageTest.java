package com.meetingreminders.delivery;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.meetingreminders.support.Api;
import com.meetingreminders.support.EventStream;
import com.meetingreminders.support.Figures;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Moments;
import com.meetingreminders.support.RedisServer;
import com.meetingreminders.support.TestServers;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis of the test's own, restarted and disconnected under the service: every reminder still arrives, and a stream
 * client still hears of it.
 */
@QuarkusTest
@QuarkusTestResource(value = TestServers.OwnRedis.class, restrictToAnnotatedClass = true)
class RedisOutageTest {

    private static final String EXPIRED_CHANNEL = "__keyevent@0__:expired";

    @TestServers.Injected
    RedisServer redis;

    @Inject
    ReminderKeys keys;

    @TestHTTPResource("/reminders/stream")
    URI streamUrl;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    @Test
    void acceptsWritesWhileRedisIsDownAndDeliversEverythingOnceItIsBack() {
        String path = "/redis-restart";
        // Measured as the test runs it: a restart of this Redis with creations while it is down (their arms wait for
        // Redis's timeout), and the creations with Redis up.
        Duration restart = LeadTime.toRepeat("A restart of Redis with 5 creates while it was down", () -> {
            redis.stop();
            IntStream.range(0, 5).forEach(i -> Api.create(meeting()));
            redis.startAgain();
        });
        await().atMost(Duration.ofSeconds(20))
                .until(() -> given().get("/q/health/ready").statusCode() == 200);
        Instant sendAt = LeadTime.fromNow(restart.plus(LeadTime.toCreate(10, receiver)));
        IntStream.range(0, 10)
                .forEach(i -> Api.create(meeting()
                        .startsAt(sendAt.plusMillis(50L * i).plusSeconds(1))
                        .remindBefore("PT1S")
                        .webhookUrl(receiver.url(path))));

        redis.stop();
        given().get("/q/health/ready")
                .then()
                .statusCode(503)
                .body("checks.find { it.name == 'Reminder timers (Redis)' }.status", equalTo("DOWN"));
        IntStream.range(0, 5)
                .forEach(i -> Api.create(meeting()
                        .startsAt(sendAt.plusMillis(50L * i + 25).plusSeconds(1))
                        .remindBefore("PT1S")
                        .webhookUrl(receiver.url(path))));
        redis.startAgain();
        LeadTime.requireBefore(sendAt);

        await().atMost(LeadTime.until(sendAt, Duration.ofSeconds(20)))
                .until(() -> receiver.on(path).size() >= 15);
        Figures figures = Figures.of(15, receiver.on(path)).print("Redis restarted");
        assertThat(figures.delivered()).isEqualTo(15);
        assertThat(figures.duplicates()).isZero();
        assertThat(figures.largestLateness()).isLessThan(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> subscribers() == 1);
        given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void catchesTheExpirationsMissedWhileItsSubscriptionWasCutAndSubscribesAgain() {
        await().atMost(Duration.ofSeconds(10)).until(() -> subscribers() == 1);
        String path = "/subscriber-killed";
        Instant sendAt = LeadTime.fromNow(LeadTime.toCreate(5, receiver));
        IntStream.range(0, 5)
                .forEach(i -> Api.create(meeting()
                        .startsAt(sendAt.plusMillis(100L * i).plusSeconds(1))
                        .remindBefore("PT1S")
                        .webhookUrl(receiver.url(path))));

        LeadTime.requireBefore(sendAt.minusMillis(50));
        Moments.waitUntil(sendAt.minusMillis(50));
        assertThat(redis.cli("CLIENT", "KILL", "TYPE", "pubsub")).isNotEqualTo("0");

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.on(path).size() >= 5);
        Figures figures = Figures.of(5, receiver.on(path)).print("Subscriber connection killed");
        assertThat(figures.delivered()).isEqualTo(5);
        assertThat(figures.duplicates()).isZero();
        assertThat(figures.largestLateness()).isLessThan(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> subscribers() == 1);
    }

    /**
     * The replica's own listening, made again with its listener while its client stays connected. Whether the other
     * replicas announce to it is StreamAcrossReplicasIT's: one replica knows that it listens itself.
     */
    @Test
    void aConnectedStreamClientGetsDeliveriesAgainOnceTheCutSubscriptionIsMadeAgain() {
        String path = "/streamed-after-cut";
        try (EventStream stream = EventStream.connect(streamUrl, Tokens.DEFAULT_CALLER)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> subscribers(keys.deliveredChannel()) == 1);

            assertThat(redis.cli("CLIENT", "KILL", "TYPE", "pubsub")).isNotEqualTo("0");

            // Listening again while the client is still connected, and announcing to it.
            await().atMost(Duration.ofSeconds(10)).until(() -> subscribers(keys.deliveredChannel()) == 1);
            String id = Api.create(meeting()
                            .startsAt(Moments.now().plusSeconds(60))
                            .remindBefore("PT2M")
                            .webhookUrl(receiver.url(path)))
                    .getString("id");
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.on(path).size() == 1);
            await().atMost(Duration.ofSeconds(5)).until(() -> !stream.about(id).isEmpty());
            assertThat(stream.about(id)).hasSize(1);
        }
    }

    private int subscribers() {
        return subscribers(EXPIRED_CHANNEL);
    }

    private int subscribers(String channel) {
        String[] reply = redis.cli("PUBSUB", "NUMSUB", channel).split("\\s+");
        return Integer.parseInt(reply[reply.length - 1]);
    }
}
