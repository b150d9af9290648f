package com.meetingreminders.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A client of GET /reminders/stream on its own connection: the answer's status and headers, the events' data as they
 * come, and when the server ended the stream. A refused stream keeps its problem body.
 */
public final class EventStream implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final HttpResponse<InputStream> response;
    private final List<String> events = new CopyOnWriteArrayList<>();
    private volatile Instant endedAt;
    private volatile String body = "";

    private EventStream(HttpResponse<InputStream> response) {
        this.response = response;
    }

    /** Connects with this bearer token and waits for the answer's headers. */
    public static EventStream open(URI stream, String token) {
        HttpRequest request = HttpRequest.newBuilder(stream)
                .header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + token)
                .build();
        try {
            EventStream opened = new EventStream(HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                    .get(30, TimeUnit.SECONDS));
            opened.read();
            return opened;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("No answer from " + stream, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int status() {
        return response.statusCode();
    }

    public String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** The body of an answer that is not a stream, once read: see {@link #hasEnded()}. */
    public String body() {
        return body;
    }

    public List<String> events() {
        return events;
    }

    /** The server ended the answer: for a stream, it closed it. */
    public boolean hasEnded() {
        return endedAt != null;
    }

    public Instant endedAt() {
        return endedAt;
    }

    private void read() {
        Thread reader = new Thread(() -> {
            StringBuilder text = new StringBuilder();
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("data:")) {
                        events.add(line.substring("data:".length()).trim());
                    }
                    text.append(line).append('\n');
                }
                body = text.toString();
                endedAt = Instant.now();
            } catch (IOException closedByUs) {
                // close() ends the connection under the reader
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** Ends the connection, as a client that goes away does. */
    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
