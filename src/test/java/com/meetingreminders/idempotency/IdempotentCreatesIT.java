package com.meetingreminders.idempotency;

import static com.meetingreminders.support.MeetingBody.meeting;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.meetingreminders.support.Database;
import com.meetingreminders.support.OwnDatabase;
import com.meetingreminders.support.OwnKeyPrefix;
import com.meetingreminders.support.Replica;
import com.meetingreminders.support.Tokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two packaged replicas on one database, and a client that sends the same create with the same Idempotency-Key to
 * both at once, 200 times: one meeting per key, and for each key exactly one answer that created it; the other is 409
 * or the replay of the first.
 */
class IdempotentCreatesIT {

    private static final int KEYS = 200;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final OwnDatabase database = new OwnDatabase();

    @RegisterExtension
    final OwnKeyPrefix keys = new OwnKeyPrefix();

    /** One answer as the client saw it. */
    private record Answer(int status, boolean replayed, byte[] body) {
        boolean created() {
            return status == 201 && !replayed;
        }
    }

    @Test
    void createsOneMeetingPerKeyWhenTwoReplicasGetTheSameCreateAtOnce() throws Exception {
        Map<String, String> settings = Map.of(
                "quarkus.datasource.jdbc.url", database.jdbcUrl(),
                "reminders.redis.key-prefix", keys.prefix(),
                "reminders.idempotency.max-keys-per-caller", String.valueOf(KEYS));
        CompletableFuture<Replica> startingA =
                CompletableFuture.supplyAsync(() -> Replica.start("idempotent-a", settings));
        CompletableFuture<Replica> startingB =
                CompletableFuture.supplyAsync(() -> Replica.start("idempotent-b", settings));
        ExecutorService client = Executors.newFixedThreadPool(2);
        try (Replica a = startingA.join();
                Replica b = startingB.join()) {
            int conflicts = 0;
            int replays = 0;
            for (int i = 0; i < KEYS; i++) {
                String key = "race-" + i + "-" + UUID.randomUUID();
                String body =
                        JSON.writeValueAsString(meeting().title("Race " + i).toMap());
                CyclicBarrier atOnce = new CyclicBarrier(2);
                Future<Answer> fromA = client.submit(() -> create(a, key, body, atOnce));
                Future<Answer> fromB = client.submit(() -> create(b, key, body, atOnce));
                List<Answer> answers = List.of(fromA.get(), fromB.get());

                List<Answer> created = answers.stream().filter(Answer::created).toList();
                assertThat(created)
                        .as("answers that created a meeting for " + key)
                        .hasSize(1);
                Answer other = answers.get(0) == created.get(0) ? answers.get(1) : answers.get(0);
                if (other.status() == 409) {
                    conflicts++;
                } else {
                    assertThat(other.status()).as("the other answer for " + key).isEqualTo(201);
                    assertThat(other.replayed()).isTrue();
                    assertThat(Arrays.equals(other.body(), created.get(0).body()))
                            .as("the replay is the first answer byte for byte")
                            .isTrue();
                    replays++;
                }
            }
            System.out.printf(
                    "Idempotent creates on two replicas: %d keys, %d meetings, other answer 409 %d times, replay %d"
                            + " times%n",
                    KEYS, meetings(), conflicts, replays);
            assertThat(meetings()).isEqualTo(KEYS);
            assertThat(Database.queryLong(database.name(), "select count(*) from idempotency_key"))
                    .isEqualTo(KEYS);
        } finally {
            client.shutdownNow();
        }
    }

    private static Answer create(Replica replica, String key, String body, CyclicBarrier atOnce) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(replica.url("/meetings")))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", Tokens.bearer(Tokens.DEFAULT_CALLER))
                .header("Content-Type", "application/json")
                .header(IdempotentCreates.HEADER, key)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        atOnce.await();
        HttpResponse<byte[]> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
        boolean replayed = answer.headers()
                .firstValue(StoredAnswer.REPLAYED)
                .map("true"::equals)
                .orElse(false);
        return new Answer(answer.statusCode(), replayed, answer.body());
    }

    private long meetings() {
        return Database.queryLong(database.name(), "select count(*) from meeting");
    }
}
