package com.meetingreminders.bench;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load generator of the creates scenarios, the same for the service and for the write floor: POST /meetings of
 * one body, authenticated, to the given ports in turn, each answer awaited before a worker sends again.
 */
final class CreateLoad {

    private final String system;
    private final List<Integer> ports;
    private final String body;

    CreateLoad(String system, List<Integer> ports, String body) {
        this.system = system;
        this.ports = ports;
        this.body = body;
    }

    /** {@code concurrency} workers for {@code seconds}: requests a second and latency. */
    Result concurrent(String name, int concurrency, int seconds) throws InterruptedException {
        long stopAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CpuTime before = CpuTime.now();
        List<Long> latencies = run(concurrency, () -> System.nanoTime() > stopAt);
        return result(name, latencies, before)
                .figure("requests_per_s", Math.round(latencies.size() / (double) seconds));
    }

    /** One client, one create after another, {@code count} of them: the latency of each. */
    Result sequential(String name, int count) throws InterruptedException {
        AtomicLong left = new AtomicLong(count);
        CpuTime before = CpuTime.now();
        return result(name, run(1, () -> left.getAndDecrement() <= 0), before);
    }

    private final AtomicLong failures = new AtomicLong();

    private List<Long> run(int concurrency, java.util.function.BooleanSupplier done) throws InterruptedException {
        Vertx vertx = Vertx.vertx();
        HttpClient client = vertx.createHttpClient(
                new HttpClientOptions().setMaxPoolSize(concurrency).setKeepAlive(true));
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        failures.set(0);
        CountDownLatch finished = new CountDownLatch(concurrency);
        String authorization = SystemUnderTest.authorization();
        for (int worker = 0; worker < concurrency; worker++) {
            int port = ports.get(worker % ports.size());
            new Object() {
                void next() {
                    if (done.getAsBoolean()) {
                        finished.countDown();
                        return;
                    }
                    long sent = System.nanoTime();
                    client.request(new RequestOptions()
                                    .setMethod(HttpMethod.POST)
                                    .setHost("127.0.0.1")
                                    .setPort(port)
                                    .setURI("/meetings")
                                    .putHeader("Content-Type", "application/json")
                                    .putHeader("Authorization", authorization))
                            .compose(request -> request.send(Buffer.buffer(body))
                                    .compose(answer -> answer.body().map(ignored -> answer.statusCode())))
                            .onComplete(answer -> {
                                if (answer.succeeded() && answer.result() == 201) {
                                    latencies.add(System.nanoTime() - sent);
                                } else {
                                    failures.incrementAndGet();
                                }
                                next();
                            });
                }
            }.next();
        }
        finished.await();
        vertx.close().toCompletionStage().toCompletableFuture().join();
        return new ArrayList<>(latencies);
    }

    /** Latency figures of the creates answered, and the CPU each cost since {@code before}. */
    private Result result(String name, List<Long> latencies, CpuTime before) {
        List<Long> sorted = latencies.stream().map(n -> n / 1_000).sorted().toList();
        Result result = new Result(name, system);
        result.expected = (long) sorted.size() + failures.get();
        result.delivered = (long) sorted.size();
        if (!sorted.isEmpty()) {
            result.p50 = Result.percentile(sorted, 50) / 1_000;
            result.p99 = Result.percentile(sorted, 99) / 1_000;
            result.max = sorted.get(sorted.size() - 1) / 1_000;
            result.figure("p50_us", Result.percentile(sorted, 50)).figure("p99_us", Result.percentile(sorted, 99));
        }
        return result.cpu(before, CpuTime.now(), latencies.size()).figure("failed", failures.get());
    }
}
