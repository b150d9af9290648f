package com.meetingreminders.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The delivery floor: the least work that does what the service does for a due reminder, and none of what it does
 * to keep its guarantees (see {@link DeliveryFloorLoop}, which runs in a JVM of its own, started here and stopped by
 * pid with the run). The bench loads the floor's ZSET, asks the loop to drain it, and measures at the receiver, where
 * the service's reminders are measured: the distance to it is what the service's guarantees cost.
 */
final class DeliveryFloor implements AutoCloseable {

    private static final String SYSTEM = "floor: ZSET poll + signed POST";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Floor floor;
    private final SystemUnderTest system;
    private final int port = ChildProcess.freePort();
    private final ChildProcess loop;
    private final HttpClient http = HttpClient.newHttpClient();

    /** With the system's {@code profile}, the loop records a JFR profile to target/bench/delivery-floor.jfr. */
    DeliveryFloor(Floor floor, SystemUnderTest system) throws InterruptedException {
        this.floor = floor;
        this.system = system;
        // The replicas' heap bound, so that neither side has more memory to spend; out of it, the process ends, and the
        // bench's request with it, instead of a loop thread dying unanswered.
        List<String> command = new ArrayList<>(List.of(ChildProcess.java(), "-Xmx512m", "-XX:+ExitOnOutOfMemoryError"));
        if (system.profile) {
            command.add(ChildProcess.flightRecording("delivery-floor"));
        }
        command.addAll(List.of(
                "-cp",
                SystemUnderTest.benchJar(),
                DeliveryFloorLoop.class.getName(),
                system.redisAddress,
                Integer.toString(port)));
        loop = ChildProcess.start("delivery-floor", command);
        ChildProcess.awaitPort(port, Duration.ofSeconds(30));
    }

    /**
     * {@code count} reminders due at one instant, beside {@code pending} others of the same ZSET due a week later;
     * delivered by the loop, and measured where the service's are: at the receiver.
     */
    Result due(String name, int count, long pending) throws Exception {
        String zset = floor.prefix + name + ":zset";
        long later = Instant.now().plus(Duration.ofDays(7)).toEpochMilli();
        floor.run(Floor.ZADD_AT, List.of(zset), Long.toString(later), floor.keys(name + ":pending:", pending));
        long dueAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS).toEpochMilli();
        List<String> due = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            due.add(UUID.randomUUID() + ":" + dueAt);
        }
        floor.run(Floor.ZADD_AT, List.of(zset), Long.toString(dueAt), due);
        if (System.currentTimeMillis() > dueAt) {
            System.out.printf("  %s: loading ran past the due time%n", name);
        }
        long deadline = dueAt + 60_000;
        try {
            // Asked before the due time, the loop starts polling at it, as the service's replicas are already there.
            CompletableFuture<HttpResponse<String>> draining = http.sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                            .timeout(Duration.ofMillis(deadline - System.currentTimeMillis() + 30_000))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(
                                    new DeliveryFloorLoop.Drain(zset, system.hook(name), count, dueAt, deadline))))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            CpuTime fallingDue = CpuTime.at(Instant.ofEpochMilli(dueAt));
            HttpResponse<String> drained = draining.join();
            if (drained.statusCode() != 200) {
                throw new IllegalStateException("The delivery floor's loop failed (its process "
                        + (loop.isAlive() ? "still runs" : "has ended") + "): " + drained.body());
            }
            system.awaitArrivals(name, count, Instant.ofEpochMilli(deadline));
            return Result.ofArrivals(name, SYSTEM, count, system.arrivals(name), dueAt)
                    .cpu(fallingDue, CpuTime.now(), count)
                    .figure("pending", pending);
        } finally {
            floor.redis.getKeys().unlink(zset);
        }
    }

    /**
     * Warms the floor's JVM on its scenarios' load as the replicas are warmed (see {@link JitWarmUp}); {@code name}
     * names the row and its slices, as in {@link ServiceScenarios#warmDeliveries}.
     */
    Result warmUp(String name, Duration atMost) throws Exception {
        return JitWarmUp.until(name, SYSTEM, "delivery_floor", atMost, slice -> due(name + "-" + slice, 20_000, 0));
    }

    @Override
    public void close() {
        loop.stop();
    }
}
