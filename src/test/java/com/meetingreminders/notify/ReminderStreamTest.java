package com.meetingreminders.notify;

import static com.meetingreminders.support.MeetingBody.meeting;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.support.Api;
import com.meetingreminders.support.CapturedLogs;
import com.meetingreminders.support.LeadTime;
import com.meetingreminders.support.Tokens;
import com.meetingreminders.support.WebhookReceiver;
import com.meetingreminders.timer.ReminderKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
        // The client's stream takes announcements once one sent to it has arrived.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            streamChannel.publish(List.of(new Announcement(Tokens.ownerOf(Tokens.DEFAULT_CALLER), "{\"ready\":1}")));
            return events.stream().anyMatch(event -> event.contains("ready"));
        });
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

    @Test
    void aClientThatFallsFarBehindHasItsStreamEnded() throws Exception {
        try (CapturedLogs logs = CapturedLogs.of(StreamChannel.class.getName());
                Socket client = new Socket()) {
            // A client that reads nothing, with a small window: what the replica writes soon waits in its buffers.
            client.setReceiveBufferSize(4 * 1024);
            client.connect(new InetSocketAddress(stream.getHost(), stream.getPort()));
            client.getOutputStream()
                    .write(("GET " + stream.getPath() + " HTTP/1.1\r\nHost: " + stream.getHost() + "\r\nAccept:"
                                    + " text/event-stream\r\nAuthorization: " + Tokens.bearer(Tokens.DEFAULT_CALLER)
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            // The client's stream takes announcements once one sent to it has arrived.
            InputStream answer = client.getInputStream();
            StringBuilder arrived = new StringBuilder();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                streamChannel.publish(
                        List.of(new Announcement(Tokens.ownerOf(Tokens.DEFAULT_CALLER), "{\"ready\":1}")));
                while (answer.available() > 0) {
                    arrived.append((char) answer.read());
                }
                return arrived.indexOf("ready") >= 0;
            });

            // Three backlogs' worth, 8 kB each: more than the connection's buffers and the backlog hold together.
            String padding = "x".repeat(8 * 1024);
            for (int round = 0; round < 30; round++) {
                int first = round * 100;
                streamChannel
                        .publish(IntStream.range(first, first + 100)
                                .mapToObj(i -> new Announcement(
                                        Tokens.ownerOf(Tokens.DEFAULT_CALLER),
                                        "{\"n\":" + i + ",\"padding\":\"" + padding + "\"}"))
                                .toList())
                        .join();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> logs.count("events behind; its stream ends") == 1);

            // The replica ends the answer: the client reads what was written, then the end.
            client.setSoTimeout(30_000);
            long events;
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(answer, StandardCharsets.UTF_8))) {
                events = lines.lines().filter(line -> line.startsWith("data:")).count();
            }
            assertThat(events).isPositive().isLessThan(3_000);
        }
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
