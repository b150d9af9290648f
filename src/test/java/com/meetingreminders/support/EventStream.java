package com.meetingreminders.support;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A client of GET /reminders/stream on its own connection: the answer's status and headers, each server-sent event
 * whole with its name ({@code message} when the server named none, as browsers' EventSource reports it), and when
 * the server ended the stream. A refused stream keeps its problem body. Close it to end the connection.
 */
public final class EventStream implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** One event as a client sees it. */
    public record Event(String name, String data) {}

    private final HttpResponse<InputStream> response;
    private final List<Event> events = new CopyOnWriteArrayList<>();
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

    /** Connects as {@code caller} and checks that the stream was opened. */
    public static EventStream connect(URI stream, String caller) {
        EventStream opened = open(stream, Tokens.of(caller));
        assertThat(opened.status()).isEqualTo(200);
        return opened;
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

    public List<Event> events() {
        return List.copyOf(events);
    }

    /** The events whose data mention {@code text}. */
    public List<Event> about(String text) {
        return events.stream().filter(event -> event.data().contains(text)).toList();
    }

    /** The server ended the answer: for a stream, it closed it. */
    public boolean hasEnded() {
        return endedAt != null;
    }

    public Instant endedAt() {
        return endedAt;
    }

    /** Lines up to an empty one make an event; its data lines are joined by line breaks, as the SSE format says. */
    private void read() {
        Thread reader = new Thread(
                () -> {
                    StringBuilder text = new StringBuilder();
                    String name = "message";
                    List<String> data = new ArrayList<>();
                    try (BufferedReader lines =
                            new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                            if (line.isEmpty()) {
                                if (!data.isEmpty()) {
                                    events.add(new Event(name, String.join("\n", data)));
                                }
                                name = "message";
                                data.clear();
                            } else if (line.startsWith("event:")) {
                                name = line.substring("event:".length()).trim();
                            } else if (line.startsWith("data:")) {
                                data.add(line.substring("data:".length()).trim());
                            }
                            text.append(line).append('\n');
                        }
                        body = text.toString();
                        endedAt = Instant.now();
                    } catch (IOException closedByUs) {
                        // close() ends the connection under the reader
                    }
                },
                "event-stream-reader");
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
