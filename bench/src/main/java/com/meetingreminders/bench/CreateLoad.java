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
import java.util.function.BooleanSupplier;

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
        return concurrentInTurns(List.of(this), List.of(name), concurrency, seconds, seconds)
                .get(0);
    }

    /** One client, one create after another, {@code count} of them: the latency of each. */
    Result sequential(String name, int count) throws InterruptedException {
        return sequentialInTurns(List.of(this), List.of(name), count, count).get(0);
    }

    /**
     * One client for each load, one create after another, {@code count} for each, in slices of {@code slice} that
     * take turns: what the machine does meanwhile (another process's compiler, a checkpoint, a slower stretch) falls
     * on every load alike, where back-to-back rows would give it all to one. One result for each load, named {@code
     * names}.
     */
    static List<Result> sequentialInTurns(List<CreateLoad> loads, List<String> names, int count, int slice)
            throws InterruptedException {
        try (Turns turns = new Turns(loads, names, 1)) {
            for (int done = 0; done < count; done += slice) {
                for (Turn turn : turns.sides) {
                    turn.take(1, countDown(Math.min(slice, count - done)));
                }
            }
            return turns.sides.stream().map(Turn::result).toList();
        }
    }

    /**
     * {@code concurrency} workers for each load, {@code seconds} in all for each, in slices of {@code sliceSeconds}
     * that take turns, as {@link #sequentialInTurns} does: requests a second and latency, one result for each load.
     */
    static List<Result> concurrentInTurns(
            List<CreateLoad> loads, List<String> names, int concurrency, int seconds, int sliceSeconds)
            throws InterruptedException {
        try (Turns turns = new Turns(loads, names, concurrency)) {
            for (int done = 0; done < seconds; done += sliceSeconds) {
                int slice = Math.min(sliceSeconds, seconds - done);
                for (Turn turn : turns.sides) {
                    turn.take(concurrency, forSeconds(slice));
                }
            }
            return turns.sides.stream()
                    .map(turn -> turn.result()
                            .figure(
                                    "requests_per_s",
                                    Math.round(turn.answered.latencies().size() / (double) seconds)))
                    .toList();
        }
    }

    /** The sides of loads in turns: closing closes every side's client, even when one fails to close. */
    private static final class Turns implements AutoCloseable {

        private final List<Turn> sides = new ArrayList<>();

        Turns(List<CreateLoad> loads, List<String> names, int connections) {
            for (int i = 0; i < loads.size(); i++) {
                sides.add(new Turn(loads.get(i), names.get(i), connections));
            }
        }

        @Override
        public void close() {
            RuntimeException failed = null;
            for (Turn turn : sides) {
                try {
                    turn.client.close();
                } catch (RuntimeException e) {
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            if (failed != null) {
                throw failed;
            }
        }
    }

    /** One load's side of loads in turns: its client, and what its slices have answered and cost. */
    private static final class Turn {

        private final CreateLoad load;
        private final String name;
        private final Client client;
        private Answered answered = new Answered(new ArrayList<>(), 0);
        private CpuTime spent = CpuTime.none();

        Turn(CreateLoad load, String name, int connections) {
            this.load = load;
            this.name = name;
            this.client = load.new Client(connections);
        }

        void take(int concurrency, BooleanSupplier done) throws InterruptedException {
            CpuTime before = CpuTime.now();
            Answered slice = client.run(concurrency, done);
            spent = spent.plus(CpuTime.now().since(before));
            answered = answered.plus(slice);
        }

        Result result() {
            return load.result(name, answered, spent);
        }
    }

    private static BooleanSupplier countDown(int count) {
        AtomicLong left = new AtomicLong(count);
        return () -> left.getAndDecrement() <= 0;
    }

    private static BooleanSupplier forSeconds(int seconds) {
        long stopAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        return () -> System.nanoTime() > stopAt;
    }

    /** The latencies, in nanoseconds, of the creates answered {@code 201}, and how many were not. */
    private record Answered(List<Long> latencies, long failed) {
        Answered plus(Answered other) {
            List<Long> all = new ArrayList<>(latencies);
            all.addAll(other.latencies);
            return new Answered(all, failed + other.failed);
        }
    }

    /** An HTTP client of up to {@code connections} kept-alive connections to the load's ports. */
    private final class Client implements AutoCloseable {

        private final Vertx vertx = Vertx.vertx();
        private final HttpClient http;

        Client(int connections) {
            http = vertx.createHttpClient(
                    new HttpClientOptions().setMaxPoolSize(connections).setKeepAlive(true));
        }

        /** {@code concurrency} workers, each sending its next create once its last is answered, until {@code done}. */
        Answered run(int concurrency, BooleanSupplier done) throws InterruptedException {
            ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
            AtomicLong failures = new AtomicLong();
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
                        http.request(new RequestOptions()
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
            return new Answered(new ArrayList<>(latencies), failures.get());
        }

        @Override
        public void close() {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** Latency figures of the creates answered, and the CPU each cost ({@code spent}). */
    private Result result(String name, Answered answered, CpuTime spent) {
        List<Long> sorted =
                answered.latencies().stream().map(n -> n / 1_000).sorted().toList();
        Result result = new Result(name, system);
        result.expected = (long) sorted.size() + answered.failed();
        result.delivered = (long) sorted.size();
        if (!sorted.isEmpty()) {
            result.p50 = Result.percentile(sorted, 50) / 1_000;
            result.p99 = Result.percentile(sorted, 99) / 1_000;
            result.max = sorted.get(sorted.size() - 1) / 1_000;
            result.figure("p50_us", Result.percentile(sorted, 50)).figure("p99_us", Result.percentile(sorted, 99));
        }
        return result.cpu(spent, sorted.size()).figure("failed", answered.failed());
    }
}
