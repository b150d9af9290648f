package com.meetingreminders.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * What the benchmark measures: two replicas of the packaged service ({@code java -jar}) on one Redis and one
 * database of their own, and the receiver process their notifications go to.
 */
final class SystemUnderTest implements AutoCloseable {

    static final int REPLICAS = 2;
    static final int BATCH = 1_000;

    record Replica(ChildProcess process, int port, Duration startToReady) {}

    /** The single node's address, for the floor and the peer beside the service; null on a cluster. */
    final String redisAddress;

    final String keyPrefix = "bench-" + System.currentTimeMillis() + ":";
    final List<Replica> replicas = new ArrayList<>();
    final String database = "bench_" + System.currentTimeMillis();
    private final int receiverPort = ChildProcess.freePort();

    /** Notifications the receiver takes before the replicas start (see Receiver.warmUp). */
    private static final int RECEIVER_WARM_UP = 20_000;

    private final ExecutorService httpThreads = Executors.newFixedThreadPool(4);
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(httpThreads)
            .build();

    private final ServiceReplica.Redis redis;
    /** Names the replicas' processes and logs: replica-0, cluster-replica-0. */
    private final String replicaName;

    final boolean profile;

    /** Whether the Redis is the run's own, dropped with its keys; otherwise the machine's, whose keys are removed. */
    private final boolean ownRedis;

    private SystemUnderTest(
            String redisAddress, ServiceReplica.Redis redis, String replicaName, boolean ownRedis, boolean profile) {
        this.redisAddress = redisAddress;
        this.redis = redis;
        this.replicaName = replicaName;
        this.ownRedis = ownRedis;
        this.profile = profile;
    }

    /** With {@code profile}, each replica records a JFR profile to target/bench/replica-N.jfr until it stops. */
    static SystemUnderTest start(boolean ownRedis, boolean profile) throws Exception {
        String redis = "redis://127.0.0.1:6379";
        if (ownRedis) {
            int port = ChildProcess.freePort();
            ChildProcess.redis(port);
            redis = "redis://127.0.0.1:" + port;
        }
        return new SystemUnderTest(redis, ServiceReplica.Redis.node(redis), "replica-", ownRedis, profile).launch();
    }

    /** The same, its replicas in cluster mode on the benchmark's own cluster ({@code seeds}, see RedisCluster). */
    static SystemUnderTest onCluster(String seeds, boolean profile) throws Exception {
        return new SystemUnderTest(null, ServiceReplica.Redis.cluster(seeds), "cluster-replica-", true, profile)
                .launch();
    }

    private SystemUnderTest launch() throws Exception {
        Postgres.execute("postgres", "create database " + database);
        ChildProcess.start(
                "receiver",
                List.of(
                        ChildProcess.java(),
                        "-Xmx1g",
                        "-cp",
                        benchJar(),
                        Receiver.class.getName(),
                        Integer.toString(receiverPort)));
        ChildProcess.awaitPort(receiverPort, Duration.ofSeconds(20));
        Receiver.warmUp(receiverPort, RECEIVER_WARM_UP);
        for (int i = 0; i < REPLICAS; i++) {
            replicas.add(startReplica(i));
        }
        return this;
    }

    /**
     * The JDK the replicas run on, to try another one (its ahead-of-time cache, say) against floors and a receiver
     * that keep the bench's own.
     */
    static Optional<String> replicaJavaHome() {
        return Optional.ofNullable(System.getenv("BENCH_REPLICA_JAVA_HOME"))
                .map(String::strip)
                .filter(home -> !home.isEmpty());
    }

    /** JVM options to try on the replicas alone (a JIT setting, say); the floors and the receiver keep theirs. */
    static List<String> replicaJavaOptions() {
        String options =
                System.getenv().getOrDefault("BENCH_REPLICA_JAVA_OPTIONS", "").strip();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    private Replica startReplica(int index) throws Exception {
        List<String> options = new ArrayList<>(List.of("-Xmx512m"));
        options.addAll(replicaJavaOptions());
        if (profile) {
            options.add(ChildProcess.flightRecording(replicaName + index));
        }
        options.add("-Dreminders.redis.key-prefix=" + keyPrefix);
        String java = replicaJavaHome().map(ChildProcess::javaIn).orElseGet(ChildProcess::java);
        ServiceReplica replica = new ServiceReplica(replicaName + index, java, database, redis, options);
        ChildProcess process = replica.start();
        Duration startToReady = replica.awaitHealthy(http, "/q/health/ready", Duration.ofSeconds(120));
        return new Replica(process, replica.port, startToReady);
    }

    String hook(String scenario) {
        return "http://127.0.0.1:" + receiverPort + "/hook/" + scenario;
    }

    String replicaUrl(int index, String path) {
        return "http://127.0.0.1:" + replicas.get(index % replicas.size()).port() + path;
    }

    /**
     * Creates the meetings through POST /meetings/batch, a thousand a call, spread over the replicas, a few calls at
     * once; returns how long it took.
     */
    Duration create(List<String> meetings) {
        long started = System.nanoTime();
        Semaphore inFlight = new Semaphore(2 * REPLICAS);
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int from = 0, call = 0; from < meetings.size(); from += BATCH, call++) {
            String body = "[" + String.join(",", meetings.subList(from, Math.min(meetings.size(), from + BATCH))) + "]";
            inFlight.acquireUninterruptibly();
            HttpRequest request = HttpRequest.newBuilder(URI.create(replicaUrl(call, "/meetings/batch")))
                    .header("Content-Type", "application/json")
                    .header("Authorization", authorization())
                    .timeout(Duration.ofMinutes(2))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            calls.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    .thenAccept(answer -> {
                        if (answer.statusCode() != 201) {
                            throw new IllegalStateException("batch answered " + answer.statusCode() + ": "
                                    + answer.body()
                                            .substring(
                                                    0,
                                                    Math.min(300, answer.body().length())));
                        }
                    })
                    .whenComplete((ignored, error) -> inFlight.release()));
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
        analyze();
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /**
     * What autoanalyze does on a server that runs it, which this machine's PostgreSQL does not (autovacuum off): fresh
     * statistics, and with them the replicas' cached plans made again. Without it, a plan a connection cached while
     * the tables were nearly empty stays: a round's update then scans the whole reminder table for its hundred ids.
     */
    private void analyze() {
        try {
            Postgres.execute(database, "analyze");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not analyze " + database, e);
        }
    }

    long count(String scenario) throws IOException, InterruptedException {
        return Long.parseLong(get("/count/" + scenario).trim());
    }

    List<Result.Arrival> arrivals(String scenario) throws IOException, InterruptedException {
        return Receiver.arrivals(http, receiverPort, scenario);
    }

    /** Waits until the receiver has the expected number for the scenario, or the deadline passes. */
    void awaitArrivals(String scenario, long expected, Instant deadline) throws Exception {
        while (Instant.now().isBefore(deadline) && count(scenario) < expected) {
            Thread.sleep(50);
        }
    }

    long residentBytes() {
        return replicas.stream().mapToLong(r -> r.process().residentBytes()).sum();
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiverPort + path))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    @Override
    public void close() {
        httpThreads.shutdownNow();
        ChildProcess.stopAll();
        if (!ownRedis) {
            forgetKeys();
        }
        try {
            Postgres.execute("postgres", "drop database if exists " + database + " with (force)");
        } catch (SQLException e) {
            System.out.println("could not drop " + database + ": " + e.getMessage());
        }
    }

    /** The bearer token bench/run minted with dev/token, as an Authorization header value. */
    static String authorization() {
        String token = System.getenv("BENCH_TOKEN");
        if (token == null) {
            throw new IllegalStateException("BENCH_TOKEN is not set: run the benchmark with bench/run");
        }
        return "Bearer " + token;
    }

    /** The replicas' keys go with them, so that a run on the machine's Redis leaves nothing behind. */
    private void forgetKeys() {
        Config config = new Config();
        config.useSingleServer().setAddress(redisAddress);
        RedissonClient redis = Redisson.create(config);
        try {
            redis.getKeys().deleteByPattern(keyPrefix + "*");
        } finally {
            redis.shutdown();
        }
    }

    static String benchJar() {
        try {
            return Path.of(Bench.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
