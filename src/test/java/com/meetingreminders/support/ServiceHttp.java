package com.meetingreminders.support;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/** What a test does with a service it started on a loopback port, a process ({@link Replica}) or a container. */
final class ServiceHttp {

    /**
     * Probes as an orchestrator probes: HTTP/1.1, never an h2c upgrade (the server's upgrade path is not what a probe
     * tests), and a timeout on each probe, so that one that hangs fails and is tried again rather than holding the
     * wait to its end without a word.
     */
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final int LOG_LINES_SHOWN = 60;
    private static final int PROBE_SHOWN = 1_000;

    private ServiceHttp() {}

    /**
     * Waits until the service on this port is ready; fails at once if it stopped running. The service is closed when
     * it does not become ready, so that a failed start leaves nothing running, and the failure carries the last lines
     * of its log ({@code log}, read after the close), since on a CI machine the log is gone with the checkout.
     */
    static void awaitReady(
            String what, int port, Duration atMost, BooleanSupplier running, AutoCloseable service, Path log) {
        AtomicReference<String> lastProbe = new AtomicReference<>("none yet");
        try {
            awaitReady(port, atMost, running, lastProbe);
        } catch (RuntimeException e) {
            try {
                service.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            String why = e instanceof ServiceStopped ? "stopped before it was ready" : "not ready within " + atMost;
            // The first line is what a test summary shows: the last probe's outcome goes there.
            throw new IllegalStateException(
                    what + " " + why + " (last probe: " + lastProbe.get() + "); " + logTail(log), e);
        }
    }

    private static void awaitReady(
            int port, Duration atMost, BooleanSupplier running, AtomicReference<String> lastProbe) {
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .timeout(PROBE_TIMEOUT)
                .build();
        await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (!running.getAsBoolean()) {
                throw new ServiceStopped();
            }
            try {
                HttpResponse<String> answer = HTTP.send(ready, HttpResponse.BodyHandlers.ofString());
                lastProbe.set(answer.statusCode() + " " + oneLine(answer.body()));
                return answer.statusCode() == 200;
            } catch (IOException notListeningYetOrTimedOut) {
                lastProbe.set(notListeningYetOrTimedOut.toString());
                return false;
            }
        });
    }

    private static String oneLine(String text) {
        String flat = text.replaceAll("\\s+", " ");
        return flat.length() > PROBE_SHOWN ? flat.substring(0, PROBE_SHOWN) + "…" : flat;
    }

    private static String logTail(Path log) {
        try {
            // Decoded leniently: a log cut mid-character still shows its tail.
            List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                    .lines()
                    .toList();
            return "the last lines of " + log + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES_SHOWN), lines.size()));
        } catch (IOException e) {
            return "its log " + log + " could not be read: " + e;
        }
    }

    private static final class ServiceStopped extends RuntimeException {}

    /** Creates a meeting through the service on this port and returns its id. */
    static String create(int port, MeetingBody body) {
        return given().baseUri("http://127.0.0.1")
                .port(port)
                .contentType(ContentType.JSON)
                .body(body.toMap())
                .post("/meetings")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** Creates the meetings in one POST /meetings/batch through the service on this port and returns their ids. */
    static List<String> createAll(int port, List<MeetingBody> bodies) {
        return given().baseUri("http://127.0.0.1")
                .port(port)
                .contentType(ContentType.JSON)
                .body(bodies.stream().map(MeetingBody::toMap).toList())
                .post("/meetings/batch")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getList("items.id", String.class);
    }
}
