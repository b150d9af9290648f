package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The chaos run's load: each second, {@code rate} meetings created, every other second one rescheduled, every third
 * one deleted, each call sent to a live replica. It records what the verdict needs: the changes that cancelled
 * reminders, and when each meeting's reminders were scheduled.
 */
final class ChaosLoad implements Runnable {

    private static final String[] DURATIONS = {"PT0S", "PT3S", "PT7S", "PT15S", "PT30S"};
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A change the load made: the reminders it cancelled, and when its answer came. */
    record Change(String meetingId, List<String> cancelled, boolean deletesAll, Instant answeredAt) {}

    private final List<ServiceReplica> replicas;
    private final int ratePerSecond;
    private final String hook;
    private final Random random;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, Instant> meetings = new ConcurrentHashMap<>();
    final List<Change> changes = new CopyOnWriteArrayList<>();
    /** When each create or reschedule of a meeting was sent: a reminder already due then is due from that moment. */
    final Map<String, List<Instant>> scheduledAt = new ConcurrentHashMap<>();

    private volatile boolean loading = true;

    ChaosLoad(List<ServiceReplica> replicas, int ratePerSecond, String hook, Random random) {
        this.replicas = replicas;
        this.ratePerSecond = ratePerSecond;
        this.hook = hook;
        this.random = random;
    }

    void stop() {
        loading = false;
    }

    @Override
    public void run() {
        long tick = 0;
        while (loading) {
            long started = System.nanoTime();
            for (int i = 0; i < ratePerSecond; i++) {
                create();
            }
            if (tick % 2 == 0) {
                reschedule();
            }
            if (tick % 3 == 0) {
                delete();
            }
            tick++;
            Chaos.sleep(Duration.ofNanos(Math.max(0, 1_000_000_000L - (System.nanoTime() - started))));
        }
    }

    private void create() {
        Instant startsAt =
                Instant.now().plusMillis(5_000 + random.nextInt(40_000)).truncatedTo(ChronoUnit.MILLIS);
        String body = meetingBody(startsAt);
        Instant sent = Instant.now();
        call("POST", "/meetings", body).ifPresent(answer -> {
            if (answer.statusCode() == 201) {
                String id = json(answer).path("id").asText();
                meetings.put(id, startsAt);
                scheduled(id, sent);
            }
        });
    }

    private void reschedule() {
        String id = anyMeeting();
        if (id == null) {
            return;
        }
        Instant startsAt =
                Instant.now().plusMillis(3_000 + random.nextInt(30_000)).truncatedTo(ChronoUnit.MILLIS);
        Instant sent = Instant.now();
        call("PUT", "/meetings/" + id, meetingBody(startsAt)).ifPresent(answer -> {
            if (answer.statusCode() == 200) {
                scheduled(id, sent);
                List<String> cancelled = new ArrayList<>();
                for (JsonNode reminder : json(answer).path("reminders")) {
                    if (reminder.path("status").asText().equals("CANCELLED")) {
                        cancelled.add(id + ":"
                                + Instant.parse(reminder.path("sendAt").asText())
                                        .toEpochMilli());
                    }
                }
                changes.add(new Change(id, cancelled, false, Instant.now()));
                meetings.put(id, startsAt);
            } else if (answer.statusCode() == 404) {
                meetings.remove(id);
            }
        });
    }

    private void delete() {
        String id = anyMeeting();
        if (id == null) {
            return;
        }
        call("DELETE", "/meetings/" + id, null).ifPresent(answer -> {
            if (answer.statusCode() == 204) {
                changes.add(new Change(id, List.of(), true, Instant.now()));
            }
            meetings.remove(id);
        });
    }

    private void scheduled(String meetingId, Instant sent) {
        scheduledAt
                .computeIfAbsent(meetingId, m -> new CopyOnWriteArrayList<>())
                .add(sent);
    }

    private String anyMeeting() {
        List<String> ids = new ArrayList<>(meetings.keySet());
        return ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
    }

    private String meetingBody(Instant startsAt) {
        ObjectNode meeting = JSON.createObjectNode()
                .put("title", "Chaos")
                .put("startsAt", startsAt.toString())
                .put("webhookUrl", hook);
        var remindBefore = meeting.putArray("remindBefore");
        for (String duration : DURATIONS) {
            if (random.nextInt(3) == 0) {
                remindBefore.add(duration);
            }
        }
        if (remindBefore.isEmpty()) {
            remindBefore.add("PT3S");
        }
        return meeting.toString();
    }

    private static JsonNode json(HttpResponse<String> answer) {
        try {
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new IllegalStateException("answer " + answer.statusCode() + " is not JSON: " + answer.body(), e);
        }
    }

    /** One call to a live replica, tried on others if the first is down; empty if none answered. */
    private Optional<HttpResponse<String>> call(String method, String path, String body) {
        List<ServiceReplica> live = new ArrayList<>(
                replicas.stream().filter(ServiceReplica::isAlive).toList());
        Collections.shuffle(live, random);
        for (ServiceReplica replica : live) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + replica.port + path))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + System.getenv("CHAOS_TOKEN"));
            request.method(
                    method,
                    body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            try {
                HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() != 503) {
                    return Optional.of(answer);
                }
            } catch (IOException e) {
                // that replica is down or dying: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
