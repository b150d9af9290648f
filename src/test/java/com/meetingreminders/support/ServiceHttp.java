package com.meetingreminders.support;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/** What a test does with a service it started on a loopback port, a process ({@link Replica}) or a container. */
final class ServiceHttp {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ServiceHttp() {}

    /**
     * Waits until the service on this port is ready; fails at once, naming its log, if it stopped running. The
     * service is closed when it does not become ready, so that a failed start leaves nothing running.
     */
    static void awaitReady(
            int port, Duration atMost, BooleanSupplier running, String stoppedMessage, AutoCloseable service) {
        try {
            awaitReady(port, atMost, running, stoppedMessage);
        } catch (RuntimeException e) {
            try {
                service.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private static void awaitReady(int port, Duration atMost, BooleanSupplier running, String stoppedMessage) {
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .build();
        await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (!running.getAsBoolean()) {
                throw new IllegalStateException(stoppedMessage);
            }
            try {
                return HTTP.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException notListeningYet) {
                return false;
            }
        });
    }

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
