package com.meetingreminders.bench;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The chaos run: replicas of the packaged service under a steady load of creates, reschedules and deletes
 * ({@link ChaosLoad}), while replicas are killed and restarted, Redis restarts and the receiver pauses. At the end
 * every reminder is checked against the database, the receiver and the log of changes ({@link ChaosVerdict}), and a
 * table is printed.
 *
 * <p>Run it with bench/chaos, which builds the service and this module first: {@code bench/chaos [--minutes 10]
 * [--replicas 3] [--rate 8] [--seed N]}. It starts its own redis-server and receiver and uses a database of its own on
 * the machine's PostgreSQL; everything it starts it stops by pid.
 */
public final class Chaos {

    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(5);
    private static final Path RESULT = Path.of("target", "chaos", "result.md");
    private static final String SCENARIO = "chaos";
    /** A replica's start, three at once on a machine that others share, can take well over a minute. */
    private static final Duration START = Duration.ofMinutes(3);

    private final Duration length;
    private final int ratePerSecond;
    private final Random random;
    private final String database = "chaos_" + System.currentTimeMillis();
    private final int redisPort = ChildProcess.freePort();
    private final int receiverPort = ChildProcess.freePort();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<ServiceReplica> replicas = new ArrayList<>();
    private final List<Instant> kills = new CopyOnWriteArrayList<>();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final ChaosLoad load;
    private volatile boolean running = true;
    private ChildProcess redis;

    private Chaos(Duration length, int replicaCount, int ratePerSecond, long seed) {
        this.length = length;
        this.ratePerSecond = ratePerSecond;
        this.random = new Random(seed);
        for (int i = 0; i < replicaCount; i++) {
            replicas.add(new ServiceReplica(
                    "chaos-replica-" + i,
                    ChildProcess.java(),
                    database,
                    ServiceReplica.Redis.node("redis://127.0.0.1:" + redisPort),
                    List.of(
                            "-Xmx384m",
                            "-Dreminders.claim.lease=" + LEASE.toSeconds() + "s",
                            "-Dreminders.webhook.timeout=" + WEBHOOK_TIMEOUT.toSeconds() + "s")));
        }
        this.load = new ChaosLoad(
                replicas, ratePerSecond, "http://127.0.0.1:" + receiverPort + "/hook/" + SCENARIO, random);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of(
                "--minutes", "10", "--replicas", "3", "--rate", "8", "--seed", Long.toString(System.nanoTime())));
        for (int i = 0; i < args.length; i += 2) {
            if (!options.containsKey(args[i]) || i + 1 >= args.length) {
                System.err.println("usage: bench/chaos [--minutes 10] [--replicas 3] [--rate 8] [--seed N]");
                System.exit(2);
            }
            options.put(args[i], args[i + 1]);
        }
        Chaos chaos = new Chaos(
                Duration.ofSeconds((long) (Double.parseDouble(options.get("--minutes")) * 60)),
                Integer.parseInt(options.get("--replicas")),
                Integer.parseInt(options.get("--rate")),
                Long.parseLong(options.get("--seed")));
        int exit;
        try {
            exit = chaos.run();
        } finally {
            chaos.stopEverything();
        }
        System.exit(exit);
    }

    private int run() throws Exception {
        Postgres.execute("postgres", "create database " + database);
        ChildProcess.start(
                "chaos-receiver",
                List.of(
                        ChildProcess.java(),
                        "-Xmx512m",
                        "-cp",
                        SystemUnderTest.benchJar(),
                        Receiver.class.getName(),
                        Integer.toString(receiverPort)));
        ChildProcess.awaitPort(receiverPort, Duration.ofSeconds(20));
        redis = ChildProcess.redis(redisPort);
        replicas.forEach(ServiceReplica::start);
        for (ServiceReplica replica : replicas) {
            replica.awaitHealthy(http, "/q/health/live", START);
        }
        System.out.printf(
                "Chaos for %s: %d replicas, %d meetings a second, lease %s%n",
                length, replicas.size(), ratePerSecond, LEASE);

        Thread loadThread = new Thread(load, "load");
        Thread chaosThread = new Thread(this::chaos, "chaos");
        loadThread.start();
        chaosThread.start();
        TimeUnit.NANOSECONDS.sleep(length.toNanos());
        running = false;
        load.stop();
        chaosThread.interrupt();
        loadThread.join();
        chaosThread.join();
        Receiver.pause(http, receiverPort, false);
        for (ServiceReplica replica : replicas) {
            if (!replica.isAlive()) {
                replica.start();
                replica.awaitHealthy(http, "/q/health/live", START);
            }
        }
        if (!redis.isAlive()) {
            redis = ChildProcess.redis(redisPort);
        }
        System.out.println("Load stopped; waiting for every reminder to be sent");
        drain();
        replicas.forEach(ServiceReplica::stop);
        return report();
    }

    private void chaos() {
        try {
            while (running) {
                TimeUnit.MILLISECONDS.sleep(10_000 + random.nextInt(20_000));
                switch (random.nextInt(3)) {
                    case 0 -> {
                        ServiceReplica victim = replicas.get(random.nextInt(replicas.size()));
                        if (victim.isAlive()) {
                            victim.kill();
                            kills.add(Instant.now());
                            event("killed " + victim.name + " (kill -9)");
                            TimeUnit.MILLISECONDS.sleep(2_000 + random.nextInt(4_000));
                            victim.start();
                            victim.awaitHealthy(http, "/q/health/live", START);
                            event("restarted " + victim.name);
                        }
                    }
                    case 1 -> {
                        redis.stop();
                        event("stopped Redis");
                        TimeUnit.MILLISECONDS.sleep(1_000 + random.nextInt(2_000));
                        redis = ChildProcess.redis(redisPort);
                        event("started Redis again, empty");
                    }
                    default -> {
                        Receiver.pause(http, receiverPort, true);
                        event("paused the receiver");
                        TimeUnit.MILLISECONDS.sleep(500 + random.nextInt(2_500));
                        Receiver.pause(http, receiverPort, false);
                        event("resumed the receiver");
                    }
                }
            }
        } catch (InterruptedException e) {
            // the run is over
        } catch (IOException e) {
            event("the chaos stopped early: " + e);
        }
    }

    private void event(String what) {
        String line = Instant.now() + " " + what;
        events.add(line);
        System.out.println(line);
    }

    private void drain() throws Exception {
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(giveUp)) {
            if (scheduledLeft() == 0) {
                return;
            }
            TimeUnit.SECONDS.sleep(1);
        }
        System.out.println("Gave up waiting: some reminders are still SCHEDULED");
    }

    private long scheduledLeft() throws SQLException {
        try (Connection connection = Postgres.connect(database);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("select count(*) from reminder where status = 'SCHEDULED'")) {
            result.next();
            return result.getLong(1);
        }
    }

    private int report() throws Exception {
        ChaosVerdict verdict = new ChaosVerdict(database, Receiver.arrivals(http, receiverPort, SCENARIO), load, kills);
        String summary = String.format(
                "Chaos run of %s, %d replicas, %d meetings created a second, %d reschedules, %d deletes, %d kills,"
                        + " %d events%n%n%s",
                length,
                replicas.size(),
                ratePerSecond,
                load.changes.stream().filter(c -> !c.deletesAll()).count(),
                load.changes.stream().filter(ChaosLoad.Change::deletesAll).count(),
                kills.size(),
                events.size(),
                verdict.table());
        System.out.println();
        System.out.print(summary);
        Files.createDirectories(RESULT.getParent());
        Files.writeString(RESULT, summary + "\nEvents:\n" + String.join("\n", events) + "\n");
        return verdict.holds() ? 0 : 1;
    }

    private void stopEverything() {
        running = false;
        load.stop();
        ChildProcess.stopAll();
        try {
            Postgres.execute("postgres", "drop database if exists " + database + " with (force)");
        } catch (SQLException e) {
            System.out.println("Could not drop database " + database + ": " + e.getMessage());
        }
    }

    static void sleep(Duration duration) {
        try {
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
