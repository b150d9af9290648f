package com.meetingreminders.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The commands of one name that the machine's Redis runs while this is open, in the order it ran them, as
 * {@code redis-cli monitor} prints them: for what a test cannot see from outside any other way, such as a publish that
 * reached no one. Close it to stop the monitor.
 */
public final class RedisMonitor implements AutoCloseable {

    private final Process process;
    private final String quotedName;
    /** The lines of the one command kept, as redis-cli printed them: the machine's Redis may run many others. */
    private final Queue<String> lines = new ConcurrentLinkedQueue<>();

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
            process = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", "6379", "monitor")
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
                    lines.add(line);
                }
            }
        } catch (IOException ended) {
            monitoring.completeExceptionally(ended);
        }
    }

    /** The commands kept so far, in the order Redis ran them, each as redis-cli printed it (arguments quoted). */
    public List<String> commands() {
        return List.copyOf(lines);
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
