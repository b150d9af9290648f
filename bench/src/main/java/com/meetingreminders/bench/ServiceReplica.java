package com.meetingreminders.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One replica of the packaged service ({@code java -jar}), on a port of its own, with the settings every run gives
 * it: its database, its Redis, the development token key and the receiver on loopback. It can be killed and started
 * again on the same port.
 */
final class ServiceReplica {

    static final String SERVICE_JAR = "target/quarkus-app/quarkus-run.jar";

    final String name;
    final int port = ChildProcess.freePort();
    private final List<String> command = new ArrayList<>();
    private ChildProcess process;

    /**
     * Where a replica finds Redis: one node ({@code reminders.redis.address}) or the seed nodes of a cluster
     * ({@code reminders.redis.cluster-nodes}, which puts the service in cluster mode).
     */
    record Redis(String key, String value) {
        static Redis node(String address) {
            return new Redis("reminders.redis.address", address);
        }

        static Redis cluster(String seeds) {
            return new Redis("reminders.redis.cluster-nodes", seeds);
        }
    }

    /**
     * {@code java} is the executable that runs it; {@code jvmOptions} go before the jar: heap, profiling, and
     * {@code -D} settings of the run's own.
     */
    ServiceReplica(String name, String java, String database, Redis redis, List<String> jvmOptions) {
        this.name = name;
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.datasource.jdbc.url=" + Postgres.jdbcUrl(database),
                "-D" + redis.key() + "=" + redis.value(),
                // Tokens come from dev/token, signed with the development key; the receiver is on loopback.
                "-Dmp.jwt.verify.publickey.location=dev/jwt-public.pem",
                "-Dmp.jwt.verify.issuer=meeting-reminders-dev",
                "-Dreminders.webhook.allowed-hosts=127.0.0.1",
                "-jar",
                SERVICE_JAR));
    }

    ChildProcess start() {
        process = ChildProcess.start(name, command);
        return process;
    }

    /**
     * Waits until the health check at {@code path} ({@code /q/health/ready}, {@code /q/health/live}) answers 200;
     * returns how long it took from the start of the process.
     */
    Duration awaitHealthy(HttpClient http, String path, Duration atMost) throws InterruptedException {
        HttpRequest check = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .build();
        Instant giveUp = Instant.now().plus(atMost);
        while (Instant.now().isBefore(giveUp)) {
            try {
                if (http.send(check, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - process.startedNanos);
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException(name + " not healthy; see " + ChildProcess.LOGS.resolve(name + ".log"));
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    void kill() {
        if (process != null) {
            process.kill();
        }
    }

    void stop() {
        if (process != null) {
            process.stop();
        }
    }

    ChildProcess process() {
        return process;
    }
}
