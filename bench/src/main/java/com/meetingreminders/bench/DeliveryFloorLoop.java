package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.standardwebhooks.Webhook;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The delivery floor's loop, run as a JVM of its own ({@code java -cp bench.jar
 * com.meetingreminders.bench.DeliveryFloorLoop <redis address> <port>}), as each replica is one: its compilers and
 * heap are its own, not the bench's, whose load generator and loading of the service's reminders would otherwise share
 * them. It polls one ZSET; each due member becomes a notification of the service's shape, written by Jackson, signed
 * with the same Standard Webhooks library and POSTed to the receiver by the same client (Vert.x) over as many
 * connections as the service keeps to one receiver. It writes no row, takes no claim, retries nothing.
 *
 * <p>It polls only while the bench asks it to: POST / with a {@link Drain} as JSON starts the loop at the drain's due
 * time, and the answer, the number of members popped, comes when all have been or at its deadline. Between drains it
 * does not poll, so that it takes no more CPU from the service's rows than an idle JVM.
 */
public final class DeliveryFloorLoop {

    /** The service's {@code reminders.webhook.max-connections-per-receiver} default. */
    static final int CONNECTIONS = 64;

    /** One scenario's work: pop {@code count} members of {@code zset} due from {@code dueAt}, each POSTed to hook. */
    record Drain(String zset, String hook, int count, long dueAt, long deadline) {}

    /** The fields and field order of the service's notification. */
    record Notification(
            String deliveryId,
            UUID meetingId,
            String title,
            String startsAt,
            String occurrence,
            String sendAt,
            String remindBefore,
            String timeZone,
            List<String> attendees) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RedissonClient redis;
    private final Webhook signer;
    /** One client for the floor's life, as the service keeps one: its connections stay open between scenarios. */
    private final HttpClient client;

    private DeliveryFloorLoop(Vertx vertx, String redisAddress) {
        this.redis = Floor.client(redisAddress);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        this.signer = new Webhook("whsec_" + Base64.getEncoder().encodeToString(key));
        this.client = vertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(CONNECTIONS));
    }

    public static void main(String[] args) {
        Vertx vertx = Vertx.vertx();
        DeliveryFloorLoop floor = new DeliveryFloorLoop(vertx, args[0]);
        // One loop at a time, on a thread of its own: the Redis calls block, the event loop must not.
        ExecutorService loop = Executors.newSingleThreadExecutor();
        vertx.createHttpServer()
                .requestHandler(request -> request.body()
                        .onSuccess(body -> loop.execute(() -> floor.answer(request, body)))
                        .onFailure(
                                error -> request.response().setStatusCode(500).end(String.valueOf(error))))
                .listen(Integer.parseInt(args[1]), "127.0.0.1")
                .onSuccess(server -> System.out.println("delivery floor listening on " + server.actualPort()))
                .onFailure(error -> {
                    error.printStackTrace();
                    System.exit(1);
                });
    }

    private void answer(HttpServerRequest request, Buffer body) {
        try {
            int popped = drain(JSON.readValue(body.getBytes(), Drain.class));
            request.response().end(Integer.toString(popped));
        } catch (Throwable e) {
            // Answered whatever went wrong, so that the bench fails at once, naming it, instead of at its timeout.
            e.printStackTrace();
            request.response().setStatusCode(500).end(String.valueOf(e));
        }
    }

    private int drain(Drain drain) throws Exception {
        long wait = drain.dueAt() - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
        URI hook = URI.create(drain.hook());
        RScript script = redis.getScript(StringCodec.INSTANCE);
        int popped = 0;
        while (popped < drain.count() && System.currentTimeMillis() < drain.deadline()) {
            List<String> members = script.eval(
                    RScript.Mode.READ_WRITE,
                    Floor.POP,
                    RScript.ReturnType.LIST,
                    List.of(drain.zset()),
                    Long.toString(System.currentTimeMillis()));
            for (String member : members) {
                post(hook, member, drain.dueAt());
            }
            popped += members.size();
            if (members.isEmpty()) {
                // A poll interval, as any poller has: without it the loop takes a core from the receiver.
                Thread.sleep(1);
            }
        }
        return popped;
    }

    private void post(URI hook, String deliveryId, long dueAt) throws Exception {
        Instant sendAt = Instant.ofEpochMilli(dueAt);
        Instant startsAt = sendAt.plus(15, ChronoUnit.MINUTES);
        long timestamp = Instant.now().getEpochSecond();
        byte[] body = JSON.writeValueAsBytes(new Notification(
                deliveryId,
                UUID.fromString(deliveryId.substring(0, 36)),
                "Floor",
                startsAt.toString(),
                startsAt.toString(),
                sendAt.toString(),
                "PT15M",
                "UTC",
                List.of("floor@example.com")));
        String signature = signer.sign(deliveryId, timestamp, new String(body, StandardCharsets.UTF_8));
        client.request(new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setHost(hook.getHost())
                        .setPort(hook.getPort())
                        .setURI(hook.getPath())
                        // Idle, not a whole timeout: that would also bound the wait for one of the pool's connections,
                        // and a drain longer than it would drop the sends still queued, unseen.
                        .setIdleTimeout(5_000)
                        .putHeader("Content-Type", "application/json")
                        .putHeader("webhook-id", deliveryId)
                        .putHeader("webhook-timestamp", Long.toString(timestamp))
                        .putHeader("webhook-signature", signature))
                .compose(request -> request.send(Buffer.buffer(body)).compose(answer -> answer.body()));
    }
}
