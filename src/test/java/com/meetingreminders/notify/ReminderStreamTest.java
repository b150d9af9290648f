package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.notify.StreamChannel.Announcement;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;

@QuarkusTest
class ReminderStreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/reminders/stream")
    URI stream;

    @Inject
    StreamChannel streamChannel;

    @Inject
    RedissonClient redis;

    @Inject
    ReminderKeys keys;

    @RegisterExtension
    final WebhookReceiver receiver = WebhookReceiver.start();

    private final HttpClient client = HttpClient.newHttpClient();
    private final List<HttpResponse<Stream<String>>> responses = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeStreams() {
        // Closing a response's lines ends its connection to the stream.
        responses.forEach(response -> response.body().close());
        responses.clear();
    }

    @Test
    void streamsEachDeliveredReminderToConnectedClients() throws Exception {
        List<String> events = connect(Tokens.DEFAULT_CALLER);

        assertTheNextDeliveryArrivesOn(events);
    }

    @Test
    void announcesNothingWhileNoClientListensAndAgainOnceOneConnects() throws Exception {
        RTopic delivered = redis.getTopic(keys.deliveredChannel());
        // The streams of earlier tests end after their connections have closed, not with them.
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.countSubscribers() == 0);
        List<Announcement> toNoOne = List.of(new Announcement("no-one", "{}"));
        streamChannel.publish(toNoOne).join();

        assertThat(streamChannel.publish(toNoOne).join())
                .as("published with no replica listening")
                .isFalse();

        List<String> events = connect(Tokens.DEFAULT_CALLER);
        assertThat(delivered.countSubscribers())
                .as("listening while a client is connected")
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> streamChannel.publish(toNoOne).join());
        assertTheNextDeliveryArrivesOn(events);

        closeStreams();
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.countSubscribers() == 0);
    }

    @Test
    void everyDeliveryOfAFullRoundReachesTheOwnersStream() throws Exception {
        List<String> events = connect(Tokens.DEFAULT_CALLER);
        await().atMost(Duration.ofSeconds(5)).until(() -> streamChannel
                .publish(List.of(new Announcement("no-one", "{}")))
                .join());
        String round = UUID.randomUUID().toString();
        List<Announcement> deliveries = IntStream.range(0, 100)
                .mapToObj(i -> new Announcement(
                        Tokens.ownerOf(Tokens.DEFAULT_CALLER), "{\"round\":\"" + round + "\",\"n\":" + i + "}"))
                .toList();

        // Announced as a round of 100 announces its deliveries: together, in one message.
        assertThat(streamChannel.publish(deliveries).join()).isTrue();

        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        events.stream().filter(event -> event.contains(round)).count() == deliveries.size());
        assertThat(events.stream().filter(event -> event.contains(round)))
                .containsExactlyElementsOf(
                        deliveries.stream().map(Announcement::notification).toList());
    }

    private void assertTheNextDeliveryArrivesOn(List<String> events) throws Exception {
        String path = "/streamed-" + UUID.randomUUID();
        Instant startsAt = LeadTime.fromNow(LeadTime.toCreate(1, receiver)).plusSeconds(1);
        String id = Api.create(meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url(path)))
                .getString("id");
        String deliveryId = Api.deliveryId(id, startsAt.minusSeconds(1));

        await().atMost(LeadTime.until(startsAt, Duration.ofSeconds(5)))
                .until(() -> events.stream().anyMatch(e -> e.contains(deliveryId)));
        await().atMost(Duration.ofSeconds(2)).until(() -> receiver.on(path).size() == 1);
        String event =
                events.stream().filter(e -> e.contains(deliveryId)).findFirst().orElseThrow();
        assertThat(JSON.readTree(event)).isEqualTo(receiver.on(path).get(0).json());
    }

    @Test
    void aCallerSeesOnlyTheRemindersOfItsOwnMeetings() throws Exception {
        List<String> alicesEvents = connect(Tokens.DEFAULT_CALLER);
        List<String> bobsEvents = connect("bob");

        // Each announcement reaches every stream of the replica, which passes on to a stream only its caller's: once
        // alice's stream has her reminder, bob's has had its chance to get it too.
        Instant startsAt = LeadTime.fromNow(LeadTime.toCreate(2, receiver)).plusSeconds(1);
        String alices = Api.create(
                        meeting().startsAt(startsAt).remindBefore("PT1S").webhookUrl(receiver.url("/a")))
                .getString("id");
        String bobs = given().header("Authorization", Tokens.bearer("bob"))
                .contentType(ContentType.JSON)
                .body(meeting()
                        .startsAt(startsAt.plusMillis(500))
                        .remindBefore("PT1S")
                        .webhookUrl(receiver.url("/b"))
                        .toMap())
                .post("/meetings")
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        await().atMost(LeadTime.until(startsAt, Duration.ofSeconds(5)))
                .until(() -> alicesEvents.stream().anyMatch(e -> e.contains(alices))
                        && bobsEvents.stream().anyMatch(e -> e.contains(bobs)));
        assertThat(alicesEvents).noneMatch(event -> event.contains(bobs));
        assertThat(bobsEvents).noneMatch(event -> event.contains(alices)).hasSize(1);
    }

    /** Connects to the stream as {@code caller}; the events' data arrive in the list. */
    private List<String> connect(String caller) throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        CompletableFuture<HttpResponse<Stream<String>>> connection = client.sendAsync(
                HttpRequest.newBuilder(stream)
                        .header("Accept", "text/event-stream")
                        .header("Authorization", Tokens.bearer(caller))
                        .build(),
                HttpResponse.BodyHandlers.ofLines());
        HttpResponse<Stream<String>> response = connection.get(5, TimeUnit.SECONDS);
        responses.add(response);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        Stream<String> lines = response.body();
        Thread reader = new Thread(() -> {
            try {
                lines.filter(line -> line.startsWith("data:"))
                        .forEach(line ->
                                events.add(line.substring("data:".length()).trim()));
            } catch (UncheckedIOException e) {
                // The test closed the stream.
            }
        });
        reader.setDaemon(true);
        reader.start();
        return events;
    }
}
