package com.meetingreminders.bench;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Instant;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The benchmark's webhook receiver, run as a process of its own ({@code java -cp bench.jar
 * com.meetingreminders.bench.Receiver <port>}). For each notification POSTed to /hook/{scenario} it records the
 * deliveryId, the sendAt and the arrival time and answers 200 at once; GET /arrivals/{scenario} returns them, one
 * {@code deliveryId sendAtMs arrivedMs} line each, and GET /count/{scenario} how many there are.
 */
public final class Receiver extends AbstractVerticle {

    record Arrival(String deliveryId, long sendAtMillis, long arrivedMillis) {}

    private static final Map<String, Queue<Arrival>> ARRIVALS = new ConcurrentHashMap<>();

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
                request.response().setStatusCode(200).end();
            });
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

    private static void record(String scenario, Buffer body, long arrived) {
        String json = body.toString();
        String deliveryId = field(json, "\"deliveryId\":\"");
        String sendAt = field(json, "\"sendAt\":\"");
        if (deliveryId != null && sendAt != null) {
            arrivals(scenario).add(new Arrival(deliveryId, Instant.parse(sendAt).toEpochMilli(), arrived));
        }
    }

    private static String field(String json, String opening) {
        int start = json.indexOf(opening);
        if (start < 0) {
            return null;
        }
        start += opening.length();
        return json.substring(start, json.indexOf('"', start));
    }
}
