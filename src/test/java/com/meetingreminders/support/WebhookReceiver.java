package com.meetingreminders.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real HTTP receiver of notifications on a free loopback port. It records each request with the moment it arrived
 * and answers 200 unless told otherwise for a path: a sequence of statuses, or no answer at all. Registered as a
 * JUnit extension ({@code @RegisterExtension}), it closes itself after each test.
 */
public final class WebhookReceiver implements AutoCloseable, AfterEachCallback {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One request as it arrived; header names are lower case. The client port is the sender's end of the connection,
     * which tells the replica that sent it ({@link Replica#freeze(int)}).
     */
    public record Received(
            String path,
            Map<String, String> headers,
            String body,
            Instant at,
            String deliveryId,
            Instant sendAt,
            int clientPort) {

        static Received of(String path, Map<String, String> headers, String body, Instant at, int clientPort) {
            JsonNode json = parse(body);
            String sendAt = json.path("sendAt").asText(null);
            return new Received(
                    path,
                    headers,
                    body,
                    at,
                    json.path("deliveryId").asText(),
                    sendAt == null ? null : Instant.parse(sendAt),
                    clientPort);
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public JsonNode json() {
            return parse(body);
        }
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, Deque<Integer>> scriptedStatuses = new ConcurrentHashMap<>();
    private final Map<String, Integer> steadyStatuses = new ConcurrentHashMap<>();
    private final Set<String> silentPaths = ConcurrentHashMap.newKeySet();
    private final Map<String, String> redirects = new ConcurrentHashMap<>();
    private final Map<String, HostileAnswer> hostile = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Set<String> unanswered = ConcurrentHashMap.newKeySet();
    private volatile CountDownLatch answersHeld = new CountDownLatch(0);

    private WebhookReceiver() throws IOException {
        // A deep accept queue: a burst of deliveries opens many connections at once.
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    public static WebhookReceiver start() {
        try {
            return new WebhookReceiver();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** Answers the next requests to the path with these statuses, in order, then 200. */
    public void answerInTurn(String path, int... statuses) {
        Deque<Integer> queue = new ArrayDeque<>();
        for (int status : statuses) {
            queue.add(status);
        }
        scriptedStatuses.put(path, queue);
    }

    /** Answers every request to the path with this status. */
    public void alwaysAnswer(String path, int status) {
        steadyStatuses.put(path, status);
    }

    /** Answers every request to the path with 307 Temporary Redirect to {@code location}. */
    public void redirect(String path, String location) {
        redirects.put(path, location);
        steadyStatuses.put(path, 307);
    }

    /** Never answers requests to the path: they hang until the receiver closes. */
    public void neverAnswer(String path) {
        silentPaths.add(path);
    }

    /**
     * Answers requests to the path the way a hostile or broken receiver would ({@link HostileAnswer}): dripping,
     * with a huge body, or closing the connection. {@link HostileAnswer#bytesWritten()} tells what it sent.
     */
    public HostileAnswer answerHostile(String path, HostileAnswer answer) {
        hostile.put(path, answer);
        return answer;
    }

    /** Keeps every answer back, from now until {@link #releaseAnswers()}: the requests stay in flight. */
    public void holdAnswers() {
        answersHeld = new CountDownLatch(1);
    }

    public void releaseAnswers() {
        answersHeld.countDown();
    }

    /**
     * True once the receiver has closed every connection from these client ports (on loopback), so that it has read
     * every request that came on them: after their sender died, say.
     */
    public boolean closedConnectionsFrom(Set<Integer> clientPorts) {
        return !ProcessSockets.holdsConnections(port(), clientPorts);
    }

    /** The deliveryIds of requests received and not answered yet. */
    public Set<String> unanswered() {
        return Set.copyOf(unanswered);
    }

    public List<Received> all() {
        return List.copyOf(received);
    }

    public List<Received> on(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    /** How often each deliveryId arrived. */
    public Map<String, Long> deliveryCounts() {
        return received.stream().collect(Collectors.groupingBy(Received::deliveryId, Collectors.counting()));
    }

    private void handle(HttpExchange exchange) throws IOException {
        Instant at = Instant.now();
        String path = exchange.getRequestURI().getPath();
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> headers = exchange.getRequestHeaders().entrySet().stream()
                .collect(Collectors.toMap(
                        e -> e.getKey().toLowerCase(Locale.ROOT), e -> String.join(",", e.getValue())));
        Received request =
                Received.of(path, headers, body, at, exchange.getRemoteAddress().getPort());
        received.add(request);
        unanswered.add(request.deliveryId());
        try {
            answer(exchange, path);
        } finally {
            unanswered.remove(request.deliveryId());
        }
    }

    private void answer(HttpExchange exchange, String path) throws IOException {
        awaitQuietly(answersHeld);
        if (silentPaths.contains(path)) {
            awaitQuietly(closing);
            exchange.close();
            return;
        }
        HostileAnswer bad = hostile.get(path);
        if (bad != null) {
            bad.answer(exchange, closing);
            return;
        }
        String location = redirects.get(path);
        if (location != null) {
            exchange.getResponseHeaders().add("Location", location);
        }
        exchange.sendResponseHeaders(statusFor(path), -1);
        exchange.close();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int statusFor(String path) {
        Deque<Integer> scripted = scriptedStatuses.get(path);
        if (scripted != null) {
            synchronized (scripted) {
                Integer next = scripted.poll();
                if (next != null) {
                    return next;
                }
            }
        }
        return steadyStatuses.getOrDefault(path, 200);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        closing.countDown();
        answersHeld.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
