package com.meetingreminders.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands of one name that the machine's Redis runs while this is open, in the order it ran them, as
 * {@code redis-cli monitor} prints them, each with the name of the client that sent it: for what a test cannot see from
 * outside any other way, such as a publish that reached no one, and which replica made it. Close it to stop the
 * monitor.
 */
public final class RedisMonitor implements AutoCloseable {

    private static final Pattern SENDER = Pattern.compile("\\[\\d+ ([^\\]]+)]");

    /** A command as redis-cli printed it (arguments quoted), and the name its client had ("" for none). */
    public record Command(String line, String client) {}

    private final Process process;
    private final String quotedName;
    /** The one command kept: the machine's Redis may run many others. */
    private final Queue<Command> kept = new ConcurrentLinkedQueue<>();
    /** Client names by address, read from CLIENT LIST until an address has one. */
    private final Map<String, String> names = new HashMap<>();

    private final CompletableFuture<Void> monitoring = new CompletableFuture<>();

    private RedisMonitor(Process process, String commandName) {
        this.process = process;
        this.quotedName = "\"" + commandName.toLowerCase(Locale.ROOT) + "\"";
    }

    /**
     * Starts keeping every {@code commandName} (in any case) that the machine's Redis runs; returns once Redis has said
     * that it monitors.
     */
    public static RedisMonitor start(String commandName) {
        Process process;
        try {
            process = new ProcessBuilder(
                            "redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(RedisServer.MACHINE_PORT), "monitor")
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        RedisMonitor monitor = new RedisMonitor(process, commandName);
        try {
            Thread reader = new Thread(monitor::read, "redis-monitor");
            reader.setDaemon(true);
            reader.start();
            monitor.monitoring.get(30, TimeUnit.SECONDS);
            return monitor;
        } catch (ExecutionException | TimeoutException e) {
            monitor.close();
            throw new IllegalStateException("redis-cli monitor did not start", e);
        } catch (InterruptedException e) {
            monitor.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void read() {
        try (BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String first = output.readLine();
            if (!"OK".equals(first)) {
                monitoring.completeExceptionally(new IllegalStateException("redis-cli monitor answered " + first));
                return;
            }
            monitoring.complete(null);
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.toLowerCase(Locale.ROOT).contains(quotedName)) {
                    kept.add(new Command(line, clientOf(line)));
                }
            }
        } catch (IOException ended) {
            monitoring.completeExceptionally(ended);
        }
    }

    /** The commands kept so far, in the order Redis ran them. */
    public List<Command> commands() {
        return List.copyOf(kept);
    }

    /**
     * Looked up as the line is read, while the connection that sent it is still open: it has just been used, and
     * Redisson closes only connections idle for seconds beyond its minimum of idle ones. A name not known yet (a
     * connection listed before it named itself) is looked up again; a lookup that fails leaves the name empty, and the
     * monitor goes on.
     */
    private String clientOf(String line) {
        Matcher sender = SENDER.matcher(line);
        if (!sender.find()) {
            return "";
        }
        String address = sender.group(1);
        if (names.getOrDefault(address, "").isEmpty()) {
            try {
                RedisClient.onMachine().forEach(client -> names.put(client.address(), client.name()));
            } catch (RuntimeException e) {
                return "";
            }
        }
        return names.getOrDefault(address, "");
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
