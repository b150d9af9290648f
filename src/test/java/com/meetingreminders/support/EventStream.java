package com.meetingreminders.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A client of GET /reminders/stream that keeps each server-sent event whole, with its name: {@code message} when the
 * server named none, as browsers' EventSource reports it. Close it to end the connection.
 */
public final class EventStream implements AutoCloseable {

    /** One event as a client sees it. */
    public record Event(String name, String data) {}

    private final HttpResponse<Stream<String>> response;
    private final List<Event> events = new CopyOnWriteArrayList<>();

    private EventStream(HttpResponse<Stream<String>> response) {
        this.response = response;
        Thread reader = new Thread(this::read, "event-stream-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Connects as {@code caller} and returns once the server has answered. */
    public static EventStream connect(URI stream, String caller) throws Exception {
        HttpResponse<Stream<String>> response = HttpClient.newHttpClient()
                .sendAsync(
                        HttpRequest.newBuilder(stream)
                                .header("Accept", "text/event-stream")
                                .header("Authorization", Tokens.bearer(caller))
                                .build(),
                        HttpResponse.BodyHandlers.ofLines())
                .get(5, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        return new EventStream(response);
    }

    public List<Event> events() {
        return List.copyOf(events);
    }

    /** The events whose data mention {@code text}. */
    public List<Event> about(String text) {
        return events.stream().filter(event -> event.data().contains(text)).toList();
    }

    /** Lines up to an empty one make an event; its data lines are joined by line breaks, as the SSE format says. */
    private void read() {
        String[] name = {"message"};
        List<String> data = new ArrayList<>();
        response.body().forEach(line -> {
            if (line.isEmpty()) {
                if (!data.isEmpty()) {
                    events.add(new Event(name[0], String.join("\n", data)));
                }
                name[0] = "message";
                data.clear();
            } else if (line.startsWith("event:")) {
                name[0] = line.substring("event:".length()).trim();
            } else if (line.startsWith("data:")) {
                data.add(line.substring("data:".length()).trim());
            }
        });
    }

    @Override
    public void close() {
        response.body().close();
    }
}
