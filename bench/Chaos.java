import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chaos run: replicas of the packaged service under a steady load of creates, reschedules and deletes, while
 * replicas are killed and restarted, Redis restarts and the receiver pauses. At the end every reminder is checked
 * against the database, the receiver and the log of changes, and a table is printed.
 *
 * <p>Run it with bench/chaos, which builds the service first: {@code bench/chaos [--minutes 10] [--replicas 3]
 * [--rate 8] [--seed 1]}. It starts its own redis-server and uses a database of its own on the machine's PostgreSQL;
 * everything it starts it stops by pid.
 */
public class Chaos {

    private static final Pattern DELIVERY_ID = Pattern.compile("\"deliveryId\":\"([^\"]+)\"");
    private static final Pattern SEND_AT = Pattern.compile("\"sendAt\":\"([^\"]+)\"");
    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern REMINDER = Pattern.compile("\\{\"sendAt\":\"([^\"]+)\",\"status\":\"([A-Z]+)\"}");
    private static final String[] DURATIONS = {"PT0S", "PT3S", "PT7S", "PT15S", "PT30S"};
    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(5);
    private static final Path WORK = Path.of("target", "chaos");

    record Arrival(String deliveryId, Instant sendAt, Instant at, Instant[] answeredAt) {}

    /** A change the load made: the reminders it cancelled, and when its answer came. */
    record Change(String meetingId, List<String> cancelled, boolean deletesAll, Instant answeredAt) {}

    private final Duration length;
    private final int replicaCount;
    private final int ratePerSecond;
    private final Random random;
    private final String database = "chaos_" + System.currentTimeMillis();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();
    private final List<Change> changes = new CopyOnWriteArrayList<>();
    private final List<Instant> kills = new CopyOnWriteArrayList<>();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final Map<String, Instant> meetings = new ConcurrentHashMap<>();
    /** When each create or reschedule of a meeting was sent: a reminder already due then is due from that moment. */
    private final Map<String, List<Instant>> scheduledAt = new ConcurrentHashMap<>();
    private final Object pause = new Object();
    private volatile boolean paused;
    private volatile boolean loading = true;

    private HttpServer receiver;
    private Process redis;
    private int redisPort;
    private final List<Replica> replicas = new ArrayList<>();

    Chaos(Duration length, int replicaCount, int ratePerSecond, long seed) {
        this.length = length;
        this.replicaCount = replicaCount;
        this.ratePerSecond = ratePerSecond;
        this.random = new Random(seed);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("--minutes", "10", "--replicas", "3", "--rate", "8", "--seed",
                Long.toString(System.nanoTime())));
        for (int i = 0; i + 1 < args.length; i += 2) {
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

    int run() throws Exception {
        Files.createDirectories(WORK);
        sql("postgres", "create database " + database);
        startReceiver();
        redisPort = freePort();
        startRedis();
        for (int i = 0; i < replicaCount; i++) {
            replicas.add(new Replica(i));
        }
        for (Replica replica : replicas) {
            replica.start();
        }
        for (Replica replica : replicas) {
            replica.awaitReady();
        }
        System.out.printf("Chaos for %s: %d replicas, %d meetings a second, lease %s%n", length, replicaCount,
                ratePerSecond, LEASE);

        Thread load = new Thread(this::load, "load");
        Thread chaos = new Thread(this::chaos, "chaos");
        load.start();
        chaos.start();
        Instant end = Instant.now().plus(length);
        while (Instant.now().isBefore(end)) {
            TimeUnit.SECONDS.sleep(1);
        }
        loading = false;
        chaos.interrupt();
        load.join();
        chaos.join();
        resume();
        for (Replica replica : replicas) {
            if (!replica.isAlive()) {
                replica.start();
                replica.awaitReady();
            }
        }
        ensureRedis();
        System.out.println("Load stopped; waiting for every reminder to be sent");
        drain();
        for (Replica replica : replicas) {
            replica.terminate();
        }
        return report();
    }

    // ---- load ----

    private void load() {
        long tick = 0;
        while (loading) {
            long started = System.nanoTime();
            for (int i = 0; i < ratePerSecond; i++) {
                create();
            }
            if (tick % 2 == 0) {
                reschedule();
            }
            if (tick % 3 == 0) {
                delete();
            }
            tick++;
            sleepQuietly(Duration.ofNanos(Math.max(0, 1_000_000_000L - (System.nanoTime() - started))));
        }
    }

    private void create() {
        Instant startsAt = Instant.now().plusMillis(5_000 + random.nextInt(40_000)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        String body = meetingBody(startsAt);
        Instant sent = Instant.now();
        call("POST", "/meetings", body).ifPresent(answer -> {
            Matcher id = ID.matcher(answer.body());
            if (answer.statusCode() == 201 && id.find()) {
                meetings.put(id.group(1), startsAt);
                scheduledAt.computeIfAbsent(id.group(1), m -> new CopyOnWriteArrayList<>()).add(sent);
            }
        });
    }

    private void reschedule() {
        String id = anyMeeting();
        if (id == null) {
            return;
        }
        Instant startsAt = Instant.now().plusMillis(3_000 + random.nextInt(30_000)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Instant sent = Instant.now();
        call("PUT", "/meetings/" + id, meetingBody(startsAt)).ifPresent(answer -> {
            if (answer.statusCode() == 200) {
                scheduledAt.computeIfAbsent(id, m -> new CopyOnWriteArrayList<>()).add(sent);
                List<String> cancelled = new ArrayList<>();
                Matcher reminder = REMINDER.matcher(answer.body());
                while (reminder.find()) {
                    if (reminder.group(2).equals("CANCELLED")) {
                        cancelled.add(id + ":" + Instant.parse(reminder.group(1)).toEpochMilli());
                    }
                }
                changes.add(new Change(id, cancelled, false, Instant.now()));
                meetings.put(id, startsAt);
            } else if (answer.statusCode() == 404) {
                meetings.remove(id);
            }
        });
    }

    private void delete() {
        String id = anyMeeting();
        if (id == null) {
            return;
        }
        call("DELETE", "/meetings/" + id, null).ifPresent(answer -> {
            if (answer.statusCode() == 204) {
                changes.add(new Change(id, List.of(), true, Instant.now()));
            }
            meetings.remove(id);
        });
    }

    private String anyMeeting() {
        List<String> ids = new ArrayList<>(meetings.keySet());
        return ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
    }

    private String meetingBody(Instant startsAt) {
        List<String> chosen = new ArrayList<>();
        for (String duration : DURATIONS) {
            if (random.nextInt(3) == 0) {
                chosen.add("\"" + duration + "\"");
            }
        }
        if (chosen.isEmpty()) {
            chosen.add("\"PT3S\"");
        }
        return "{\"title\":\"Chaos\",\"startsAt\":\"" + startsAt + "\",\"remindBefore\":[" + String.join(",", chosen)
                + "],\"webhookUrl\":\"http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook\"}";
    }

    /** One call to a live replica, tried on others if the first is down; empty if none answered. */
    private java.util.Optional<HttpResponse<String>> call(String method, String path, String body) {
        List<Replica> live = new ArrayList<>(replicas.stream().filter(Replica::isAlive).toList());
        java.util.Collections.shuffle(live, random);
        for (Replica replica : live) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + replica.port + path))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + System.getenv("CHAOS_TOKEN"));
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
            try {
                HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() != 503) {
                    return java.util.Optional.of(answer);
                }
            } catch (IOException e) {
                // that replica is down or dying: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.empty();
    }

    // ---- chaos ----

    private void chaos() {
        try {
            while (loading) {
                TimeUnit.MILLISECONDS.sleep(10_000 + random.nextInt(20_000));
                switch (random.nextInt(3)) {
                    case 0 -> {
                        Replica victim = replicas.get(random.nextInt(replicas.size()));
                        if (victim.isAlive()) {
                            victim.kill();
                            kills.add(Instant.now());
                            event("killed replica " + victim.index + " (kill -9)");
                            TimeUnit.MILLISECONDS.sleep(2_000 + random.nextInt(4_000));
                            victim.start();
                            victim.awaitReady();
                            event("restarted replica " + victim.index);
                        }
                    }
                    case 1 -> {
                        stopRedis();
                        event("stopped Redis");
                        TimeUnit.MILLISECONDS.sleep(1_000 + random.nextInt(2_000));
                        startRedis();
                        event("started Redis again, empty");
                    }
                    default -> {
                        paused = true;
                        event("paused the receiver");
                        TimeUnit.MILLISECONDS.sleep(500 + random.nextInt(2_500));
                        resume();
                        event("resumed the receiver");
                    }
                }
            }
        } catch (InterruptedException e) {
            // the run is over
        }
    }

    private void event(String what) {
        String line = Instant.now() + " " + what;
        events.add(line);
        System.out.println(line);
    }

    private void resume() {
        synchronized (pause) {
            paused = false;
            pause.notifyAll();
        }
    }

    // ---- the end ----

    private void drain() throws Exception {
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(giveUp)) {
            long left = count("select count(*) from reminder where status = 'SCHEDULED'");
            if (left == 0) {
                return;
            }
            TimeUnit.SECONDS.sleep(1);
        }
        System.out.println("Gave up waiting: some reminders are still SCHEDULED");
    }

    private int report() throws SQLException {
        Map<String, String> status = new HashMap<>();
        Map<String, Instant> sendAt = new HashMap<>();
        try (Connection connection = connect(database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "select meeting_id, (extract(epoch from send_at) * 1000)::bigint, status from reminder")) {
            while (rows.next()) {
                String id = rows.getString(1) + ":" + rows.getLong(2);
                status.put(id, rows.getString(3));
                sendAt.put(id, Instant.ofEpochMilli(rows.getLong(2)));
            }
        }
        Map<String, List<Arrival>> received = new HashMap<>();
        for (Arrival arrival : arrivals) {
            received.computeIfAbsent(arrival.deliveryId(), id -> new ArrayList<>()).add(arrival);
        }
        long due = status.values().stream().filter(s -> s.equals("DELIVERED") || s.equals("FAILED") || s.equals("SCHEDULED")).count();
        long delivered = status.entrySet().stream()
                .filter(e -> !e.getValue().equals("CANCELLED") && !e.getValue().equals("SKIPPED"))
                .filter(e -> received.containsKey(e.getKey()))
                .count();
        long lost = status.entrySet().stream()
                .filter(e -> e.getValue().equals("DELIVERED") || e.getValue().equals("SCHEDULED") || e.getValue().equals("FAILED"))
                .filter(e -> !received.containsKey(e.getKey()))
                .count();
        long stale = 0;
        for (Change change : changes) {
            for (Map.Entry<String, List<Arrival>> entry : received.entrySet()) {
                // A later reschedule back to the same send time revives a cancelled reminder: then it is rightly sent.
                boolean cancelledByIt = change.deletesAll()
                        ? entry.getKey().startsWith(change.meetingId()) && !status.containsKey(entry.getKey())
                        : change.cancelled().contains(entry.getKey())
                                && !"DELIVERED".equals(status.get(entry.getKey()));
                if (cancelledByIt && entry.getValue().stream().anyMatch(a -> a.at().isAfter(change.answeredAt()))) {
                    stale++;
                    System.out.println("STALE " + entry.getKey() + " after change answered at " + change.answeredAt());
                }
            }
        }
        long fromKills = 0;
        long otherDuplicates = 0;
        List<Long> lateness = new ArrayList<>();
        for (List<Arrival> copies : received.values()) {
            copies.sort((x, y) -> x.at().compareTo(y.at()));
            lateness.add(Duration.between(dueFrom(copies.get(0)), copies.get(0).at()).toMillis());
            for (int i = 1; i < copies.size(); i++) {
                Instant first = copies.get(0).at();
                Instant again = copies.get(i).at();
                boolean killBetween = kills.stream().anyMatch(k -> !k.isBefore(first) && !k.isAfter(again));
                if (killBetween) {
                    fromKills++;
                } else {
                    otherDuplicates++;
                    System.out.println("DUPLICATE without a kill: " + copies.get(0).deliveryId() + " sendAt "
                            + copies.get(0).sendAt() + " first " + copies.get(0).at() + " answered "
                            + copies.get(0).answeredAt()[0] + " again " + copies.get(i).at());
                }
            }
        }
        lateness.sort(Long::compare);
        long failed = status.values().stream().filter(s -> s.equals("FAILED")).count();
        String table = String.format(
                "| due | delivered | lost | stale | duplicates (from kills) | duplicates (other) | failed | lateness p50 | p99 | max |%n"
                        + "|---|---|---|---|---|---|---|---|---|---|%n"
                        + "| %d | %d | %d | %d | %d | %d | %d | %d ms | %d ms | %d ms |%n",
                due, delivered, lost, stale, fromKills, otherDuplicates, failed, percentile(lateness, 50),
                percentile(lateness, 99), lateness.isEmpty() ? 0 : lateness.get(lateness.size() - 1));
        String summary = String.format(
                "Chaos run of %s, %d replicas, %d meetings created a second, %d reschedules, %d deletes, %d kills, %d events%n%n%s",
                length, replicaCount, ratePerSecond, changes.stream().filter(c -> !c.deletesAll()).count(),
                changes.stream().filter(Change::deletesAll).count(), kills.size(), events.size(), table);
        System.out.println();
        System.out.print(summary);
        try {
            Files.writeString(WORK.resolve("result.md"), summary + "\nEvents:\n" + String.join("\n", events) + "\n");
        } catch (IOException e) {
            System.out.println("Could not write " + WORK.resolve("result.md"));
        }
        return lost == 0 && stale == 0 && otherDuplicates == 0 ? 0 : 1;
    }

    /**
     * When a reminder became due: its send time, or, for one already due when it was scheduled (sent at once, by the
     * contract), the moment the request that scheduled it was sent.
     */
    private Instant dueFrom(Arrival arrival) {
        String meetingId = arrival.deliveryId().substring(0, arrival.deliveryId().lastIndexOf(':'));
        Instant scheduled = scheduledAt.getOrDefault(meetingId, List.of()).stream()
                .filter(sent -> !sent.isAfter(arrival.at()))
                .max(Instant::compareTo)
                .orElse(arrival.sendAt());
        return scheduled.isAfter(arrival.sendAt()) ? scheduled : arrival.sendAt();
    }

    private static long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * p / 100.0) - 1));
    }

    // ---- the receiver ----

    private void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        receiver.createContext("/hook", this::notification);
        receiver.setExecutor(Executors.newCachedThreadPool());
        receiver.start();
    }

    private void notification(HttpExchange exchange) throws IOException {
        Instant at = Instant.now();
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher id = DELIVERY_ID.matcher(body);
        Matcher send = SEND_AT.matcher(body);
        Instant[] answered = new Instant[1];
        if (id.find() && send.find()) {
            arrivals.add(new Arrival(id.group(1), Instant.parse(send.group(1)), at, answered));
        }
        synchronized (pause) {
            while (paused) {
                try {
                    pause.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
        answered[0] = Instant.now();
    }

    // ---- processes ----

    private void startRedis() {
        try {
            Path dir = Files.createDirectories(WORK.resolve("redis"));
            redis = new ProcessBuilder("redis-server", "--port", Integer.toString(redisPort), "--bind", "127.0.0.1",
                            "--save", "", "--appendonly", "no", "--dir", dir.toAbsolutePath().toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
                    .start();
            for (int i = 0; i < 100 && !redisAnswers(); i++) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ensureRedis() {
        if (redis == null || !redis.isAlive()) {
            startRedis();
        }
    }

    private boolean redisAnswers() {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", redisPort)) {
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readNBytes(5), StandardCharsets.US_ASCII).equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    private void stopRedis() throws InterruptedException {
        if (redis != null) {
            redis.destroy();
            redis.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private void stopEverything() throws Exception {
        loading = false;
        resume();
        for (Replica replica : replicas) {
            replica.kill();
        }
        stopRedis();
        if (receiver != null) {
            receiver.stop(0);
            ((java.util.concurrent.ExecutorService) receiver.getExecutor()).shutdownNow();
        }
        try {
            sql("postgres", "drop database if exists " + database + " with (force)");
        } catch (SQLException e) {
            System.out.println("Could not drop database " + database + ": " + e.getMessage());
        }
    }

    private final class Replica {
        final int index;
        final int port = freePort();
        Process process;

        Replica(int index) {
            this.index = index;
        }

        void start() {
            try {
                process = new ProcessBuilder(
                                javaExecutable(), "-Xmx384m",
                                "-Dquarkus.http.port=" + port,
                                "-Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:5432/" + database,
                                "-Dreminders.redis.address=redis://127.0.0.1:" + redisPort,
                                "-Dreminders.claim.lease=" + LEASE.toSeconds() + "s",
                                "-Dreminders.webhook.timeout=" + WEBHOOK_TIMEOUT.toSeconds() + "s",
                                "-Dmp.jwt.verify.publickey.location=dev/jwt-public.pem",
                                "-Dmp.jwt.verify.issuer=meeting-reminders-dev",
                                "-Dreminders.webhook.allowed-hosts=127.0.0.1",
                                "-jar", "target/quarkus-app/quarkus-run.jar")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(WORK.resolve("replica-" + index + ".log").toFile()))
                        .start();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        void awaitReady() {
            HttpRequest live = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/live")).build();
            Instant giveUp = Instant.now().plus(Duration.ofSeconds(90));
            while (Instant.now().isBefore(giveUp)) {
                try {
                    if (http.send(live, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // starting
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                sleepQuietly(Duration.ofMillis(200));
            }
            throw new IllegalStateException("replica " + index + " did not start; see " + WORK.resolve("replica-" + index + ".log"));
        }

        boolean isAlive() {
            return process != null && process.isAlive();
        }

        void kill() throws InterruptedException {
            if (isAlive()) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }

        void terminate() throws InterruptedException {
            if (isAlive()) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    kill();
                }
            }
        }
    }

    // ---- small things ----

    private long count(String query) throws SQLException {
        try (Connection connection = connect(database);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(query)) {
            result.next();
            return result.getLong(1);
        }
    }

    private static void sql(String db, String statementText) throws SQLException {
        try (Connection connection = connect(db);
                Statement statement = connection.createStatement()) {
            statement.execute(statementText);
        }
    }

    private static Connection connect(String db) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/" + db, "postgres", "");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String javaExecutable() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    private static void sleepQuietly(Duration duration) {
        try {
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
