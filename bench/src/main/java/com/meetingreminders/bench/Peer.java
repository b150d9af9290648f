package com.meetingreminders.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The peer a Java user would otherwise pick: Redisson's RDelayedQueue, with consumers that POST each element to the
 * same receiver, as the service does for a reminder. No database, no signature, no record of delivery.
 */
final class Peer implements AutoCloseable {

    private static final int CONSUMERS = 4;
    private static final int IN_FLIGHT = 256;

    /**
     * Offers sent and not yet answered. A hundred thousand at once queued in Redisson longer than its 3 s response
     * timeout in a slow hour, and the offer that timed out ended the whole run.
     */
    private static final int OFFERS_IN_FLIGHT = 1_000;

    private final RedissonClient redis;
    private final SystemUnderTest system;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    Peer(String address, SystemUnderTest system) {
        this.redis = Floor.client(address);
        this.system = system;
    }

    /** {@code count} elements due at one instant, each POSTed to the receiver when the queue hands it out. */
    Result delayedQueue(String name, int count) throws Exception {
        RBlockingQueue<String> destination =
                redis.getBlockingQueue("bench-peer-" + System.currentTimeMillis(), StringCodec.INSTANCE);
        RDelayedQueue<String> delayed = redis.getDelayedQueue(destination);
        Instant dueAt = Instant.now().plusSeconds(3 + count / 20_000).truncatedTo(ChronoUnit.MILLIS);
        List<RFuture<Void>> offers = new ArrayList<>(count);
        Semaphore offersInFlight = new Semaphore(OFFERS_IN_FLIGHT);
        for (int i = 0; i < count; i++) {
            offersInFlight.acquire();
            long delay = dueAt.toEpochMilli() - System.currentTimeMillis();
            RFuture<Void> offer = delayed.offerAsync("peer-" + i, Math.max(0, delay), TimeUnit.MILLISECONDS);
            offer.whenComplete((ignored, error) -> offersInFlight.release());
            offers.add(offer);
        }
        offers.forEach(offer -> offer.toCompletableFuture().join());
        if (Instant.now().isAfter(dueAt)) {
            System.out.printf("  %s: offering ran past the due time%n", name);
        }
        String hook = system.hook(name);
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        ExecutorService consumers = Executors.newFixedThreadPool(CONSUMERS);
        for (int c = 0; c < CONSUMERS; c++) {
            consumers.execute(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        String element = destination.take();
                        String body = "{\"deliveryId\":\"" + element + "\",\"sendAt\":\"" + dueAt + "\"}";
                        inFlight.acquire();
                        http.sendAsync(
                                        HttpRequest.newBuilder(URI.create(hook))
                                                .header("Content-Type", "application/json")
                                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .whenComplete((answer, error) -> inFlight.release());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }
        system.awaitArrivals(name, count, dueAt.plusSeconds(60));
        consumers.shutdownNow();
        delayed.destroy();
        destination.delete();
        return Result.ofArrivals(
                name, "peer: Redisson RDelayedQueue", count, system.arrivals(name), dueAt.toEpochMilli());
    }

    @Override
    public void close() {
        redis.shutdown();
    }
}
