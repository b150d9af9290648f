package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.standardwebhooks.Webhook;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.redisson.api.RScript;
import org.redisson.client.codec.StringCodec;

/**
 * The delivery floor: the least work that does what the service does for a due reminder, and none of what it does
 * to keep its guarantees. One loop polls one ZSET; each due member becomes a notification of the service's shape,
 * written by Jackson, signed with the same Standard Webhooks library, and POSTed to the same receiver by the same
 * client (Vert.x) over as many connections as the service keeps to one receiver. It writes no row, takes no claim,
 * retries nothing: the distance to it is what the service's guarantees cost.
 */
final class DeliveryFloor implements AutoCloseable {

    private static final String SYSTEM = "floor: ZSET poll + signed POST";

    /** The service's {@code reminders.webhook.max-connections-per-receiver} default. */
    static final int CONNECTIONS = 64;

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

    private final Floor floor;
    private final SystemUnderTest system;
    private final ObjectMapper json = new ObjectMapper();
    private final Webhook signer;
    /** One client for the floor's life, as the service keeps one: its connections stay open between scenarios. */
    private final Vertx vertx = Vertx.vertx();

    private final HttpClient client = vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(CONNECTIONS));

    DeliveryFloor(Floor floor, SystemUnderTest system) {
        this.floor = floor;
        this.system = system;
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        this.signer = new Webhook("whsec_" + Base64.getEncoder().encodeToString(key));
    }

    /**
     * {@code count} reminders due at one instant, beside {@code pending} others of the same ZSET due a week later;
     * delivered as described above, and measured where the service's are: at the receiver.
     */
    Result due(String name, int count, long pending) throws Exception {
        String zset = floor.prefix + name + ":zset";
        long later = Instant.now().plus(Duration.ofDays(7)).toEpochMilli();
        floor.run(Floor.ZADD_AT, List.of(zset), Long.toString(later), floor.keys(name + ":pending:", pending));
        // This loop runs in the bench's own JVM, which has just loaded the scenario's reminders into the service (and
        // these pending ones): its compilers finish that first, instead of competing with the floor's sends.
        CpuTime.onceCompilersQuiet("bench", Duration.ofSeconds(30));
        long dueAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS).toEpochMilli();
        List<String> due = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            due.add(UUID.randomUUID() + ":" + dueAt);
        }
        floor.run(Floor.ZADD_AT, List.of(zset), Long.toString(dueAt), due);
        if (System.currentTimeMillis() > dueAt) {
            System.out.printf("  %s: loading ran past the due time%n", name);
        }
        CpuTime fallingDue = CpuTime.at(Instant.ofEpochMilli(dueAt));
        try {
            URI hook = URI.create(system.hook(name));
            RScript script = floor.redis.getScript(StringCodec.INSTANCE);
            long deadline = dueAt + 60_000;
            int popped = 0;
            while (popped < count && System.currentTimeMillis() < deadline) {
                List<String> members = script.eval(
                        RScript.Mode.READ_WRITE,
                        Floor.POP,
                        RScript.ReturnType.LIST,
                        List.of(zset),
                        Long.toString(System.currentTimeMillis()));
                for (String member : members) {
                    post(hook, member, dueAt);
                }
                popped += members.size();
                if (members.isEmpty()) {
                    // A poll interval, as any poller has: without it the loop takes a core from the receiver.
                    Thread.sleep(1);
                }
            }
            system.awaitArrivals(name, count, Instant.ofEpochMilli(deadline));
        } finally {
            floor.redis.getKeys().unlink(zset);
        }
        return Result.ofArrivals(name, SYSTEM, count, system.arrivals(name), dueAt)
                .cpu(fallingDue, CpuTime.now(), count)
                .figure("pending", pending);
    }

    /**
     * Warms the floor, whose loop runs in the bench's own JVM, on its scenarios' load as the replicas are warmed (see
     * {@link JitWarmUp}).
     */
    Result warmUp(Duration atMost) throws Exception {
        return JitWarmUp.until(
                "warm-up-deliveries-floor", SYSTEM, "bench", atMost, slice -> due("floor-warm-up-" + slice, 20_000, 0));
    }

    private void post(URI hook, String deliveryId, long dueAt) {
        Instant sendAt = Instant.ofEpochMilli(dueAt);
        Instant startsAt = sendAt.plus(15, ChronoUnit.MINUTES);
        byte[] body;
        String signature;
        long timestamp = Instant.now().getEpochSecond();
        try {
            body = json.writeValueAsBytes(new Notification(
                    deliveryId,
                    UUID.fromString(deliveryId.substring(0, 36)),
                    "Floor",
                    startsAt.toString(),
                    startsAt.toString(),
                    sendAt.toString(),
                    "PT15M",
                    "UTC",
                    List.of("floor@example.com")));
            signature = signer.sign(deliveryId, timestamp, new String(body, StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        client.request(new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setHost(hook.getHost())
                        .setPort(hook.getPort())
                        .setURI(hook.getPath())
                        .setTimeout(5_000)
                        .putHeader("Content-Type", "application/json")
                        .putHeader("webhook-id", deliveryId)
                        .putHeader("webhook-timestamp", Long.toString(timestamp))
                        .putHeader("webhook-signature", signature))
                .compose(request -> request.send(Buffer.buffer(body)).compose(answer -> answer.body()));
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
