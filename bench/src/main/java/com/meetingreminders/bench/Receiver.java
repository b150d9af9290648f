package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The benchmark's webhook receiver, run as a process of its own ({@code java -cp bench.jar
 * com.meetingreminders.bench.Receiver <port>}). For each notification POSTed to /hook/{scenario} it records the
 * deliveryId, the sendAt and the arrival time and answers 200 at once, or, after POST /pause, holds its answer until
 * POST /resume (a receiver that stalls, for the chaos run); GET /arrivals/{scenario} returns them, one
 * {@code deliveryId sendAtMs arrivedMs} line each, and GET /count/{scenario} how many there are.
 */
public final class Receiver extends AbstractVerticle {

    record Arrival(String deliveryId, long sendAtMillis, long arrivedMillis) {}

    private static final Map<String, Queue<Arrival>> ARRIVALS = new ConcurrentHashMap<>();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The answers held while paused; null while answering at once. */
    private static Queue<HttpServerResponse> held;

    private final int port;

    private Receiver(int port) {
        this.port = port;
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        vertx.deployVerticle(() -> new Receiver(port), new DeploymentOptions().setInstances(2))
                .onSuccess(id -> System.out.println("receiver listening on " + port))
                .onFailure(error -> {
                    error.printStackTrace();
                    System.exit(1);
                });
    }

    @Override
    public void start() {
        vertx.createHttpServer().requestHandler(this::handle).listen(port, "127.0.0.1");
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        if (path.startsWith("/hook/")) {
            long arrived = System.currentTimeMillis();
            String scenario = path.substring("/hook/".length());
            request.body().onSuccess(body -> {
                record(scenario, body, arrived);
                answer(request.response().setStatusCode(200));
            });
        } else if (path.equals("/pause") || path.equals("/resume")) {
            pause(path.equals("/pause"));
            request.response().end();
        } else if (path.startsWith("/arrivals/")) {
            StringBuilder lines = new StringBuilder();
            for (Arrival arrival : arrivals(path.substring("/arrivals/".length()))) {
                lines.append(arrival.deliveryId())
                        .append(' ')
                        .append(arrival.sendAtMillis())
                        .append(' ')
                        .append(arrival.arrivedMillis())
                        .append('\n');
            }
            request.response().end(lines.toString());
        } else if (path.startsWith("/count/")) {
            request.response()
                    .end(Integer.toString(
                            arrivals(path.substring("/count/".length())).size()));
        } else {
            request.response().setStatusCode(404).end();
        }
    }

    private static Queue<Arrival> arrivals(String scenario) {
        return ARRIVALS.computeIfAbsent(scenario, s -> new ConcurrentLinkedQueue<>());
    }

    private static synchronized void answer(HttpServerResponse response) {
        if (held == null) {
            response.end();
        } else {
            held.add(response);
        }
    }

    private static synchronized void pause(boolean pause) {
        if (pause && held == null) {
            held = new ArrayDeque<>();
        } else if (!pause && held != null) {
            held.forEach(HttpServerResponse::end);
            held = null;
        }
    }

    private static void record(String scenario, Buffer body, long arrived) {
        try {
            JsonNode notification = JSON.readTree(body.getBytes());
            String deliveryId = notification.path("deliveryId").asText(null);
            String sendAt = notification.path("sendAt").asText(null);
            if (deliveryId != null && sendAt != null) {
                arrivals(scenario)
                        .add(new Arrival(deliveryId, Instant.parse(sendAt).toEpochMilli(), arrived));
            }
        } catch (IOException | RuntimeException notANotification) {
            // Counted nowhere: only notifications are arrivals.
        }
    }

    /**
     * Sends the receiver on {@code port} {@code count} notifications of its own scenario, from 16 clients, before any
     * replica starts: the receiver is not what the benchmark measures, and a fresh replica's first reminders should
     * not wait on a receiver's cold JVM.
     */
    static void warmUp(int port, int count) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        URI hook = URI.create("http://127.0.0.1:" + port + "/hook/receiver-warm-up");
        ExecutorService clients = Executors.newFixedThreadPool(16);
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> sending = new ArrayList<>();
        for (int client = 0; client < 16; client++) {
            sending.add(clients.submit(() -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    String body = "{\"deliveryId\":\"warm-up-" + i + "\",\"sendAt\":\"" + Instant.now() + "\"}";
                    try {
                        http.send(
                                HttpRequest.newBuilder(hook)
                                        .POST(HttpRequest.BodyPublishers.ofString(body))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding());
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException("The receiver did not take its warm-up", e);
                    }
                }
            }));
        }
        clients.shutdown();
        if (!clients.awaitTermination(2, TimeUnit.MINUTES)) {
            clients.shutdownNow();
            throw new IllegalStateException("The receiver's warm-up took over two minutes");
        }
        // A client that failed ended early: the run must not go on against a receiver that was never warmed.
        for (Future<?> client : sending) {
            try {
                client.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("The receiver's warm-up failed", e.getCause());
            }
        }
    }

    /** What the receiver on {@code port} has recorded for the scenario, asked over HTTP. */
    static List<Result.Arrival> arrivals(HttpClient http, int port, String scenario)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/arrivals/" + scenario))
                .build();
        List<Result.Arrival> arrivals = new ArrayList<>();
        for (String line :
                http.send(request, HttpResponse.BodyHandlers.ofString()).body().split("\n")) {
            if (!line.isBlank()) {
                String[] parts = line.split(" ");
                arrivals.add(new Result.Arrival(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2])));
            }
        }
        return arrivals;
    }

    /** POST /pause or /resume to the receiver on {@code port}. */
    static void pause(HttpClient http, int port, boolean pause) throws IOException, InterruptedException {
        http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + (pause ? "/pause" : "/resume")))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.discarding());
    }
}
